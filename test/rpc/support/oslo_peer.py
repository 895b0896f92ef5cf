"""A real oslo.messaging peer for Baton's interop tests (run with /usr/bin/python3).

    oslo_peer.py <transport url, rabbit://...> <control exchange>

Reads one JSON command a line on stdin and answers each with one JSON line on
stdout carrying the same "id" ({"id", "ok": true, "result"} or {"id", "ok":
false, "error": {...}}); commands run in threads of their own, so a slow call
does not hold back the others. Endpoints report what they handled as event
lines ({"event": "handled", ...}, no id).

  {"id", "op": "serve", "topic", "server"}         an RPC server (endpoints below)
  {"id", "op": "call" | "cast", "topic", "method", "args", "server"?,
   "fanout"?, "version"?, "namespace"?, "context"?, "timeout"?,
   "call_monitor_timeout"?}                         an RPC client request
  {"id", "op": "stop"}                             stops the servers and exits

Objects travel through oslo.versionedobjects' VersionedObjectSerializer; in
the JSON lines a Widget is {"$widget": {field: value}} (arguments) and
{"$widget": {"version", "fields", "changes"}} (results and events).
"""

import json
import sys
import threading
import time

from oslo_config import cfg
import oslo_messaging as messaging
from oslo_messaging.rpc import dispatcher
from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields as ovo_fields


@ovo_base.VersionedObjectRegistry.register
class Widget(ovo_base.VersionedObject):
    # Version 1.0: id, name
    # Version 1.1: colour
    VERSION = '1.1'
    fields = {
        'id': ovo_fields.IntegerField(),
        'name': ovo_fields.StringField(),
        'colour': ovo_fields.StringField(nullable=True),
    }

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        if target_version == '1.0':
            primitive.pop('colour', None)


OUT_LOCK = threading.Lock()


def emit(line):
    with OUT_LOCK:
        sys.stdout.write(json.dumps(line) + '\n')
        sys.stdout.flush()


def to_json(value):
    if isinstance(value, Widget):
        return {'$widget': {
            'version': value.VERSION,
            'fields': {k: getattr(value, k) for k in value.fields
                       if value.obj_attr_is_set(k)},
            'changes': sorted(value.obj_what_changed()),
        }}
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def from_json(value):
    if isinstance(value, dict) and set(value) == {'$widget'}:
        return Widget(**value['$widget'])
    if isinstance(value, dict):
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


CHECKS = [
    ('MessagingTimeout', messaging.MessagingTimeout),
    ('UnsupportedVersion', dispatcher.UnsupportedVersion),
    ('NoSuchMethod', dispatcher.NoSuchMethod),
    ('RemoteError', messaging.RemoteError),
]


def describe(error):
    described = {
        'class': type(error).__name__,
        'module': type(error).__module__,
        'message': str(error),
        'is': [name for name, cls in CHECKS if isinstance(error, cls)],
    }
    for attr in ('exc_type', 'value', 'version', 'method'):
        if hasattr(error, attr):
            described[attr] = to_json(getattr(error, attr))
    return described


class ConductorEndpoint(object):
    target = messaging.Target(version='1.1')

    def __init__(self, server):
        self.server = server

    def _handled(self, ctxt, method, **args):
        emit({'event': 'handled', 'server': self.server, 'method': method,
              'args': to_json(args), 'context': ctxt})

    def echo(self, ctxt, value):
        self._handled(ctxt, 'echo', value=value)
        return value

    def whoami(self, ctxt):
        return self.server

    def context(self, ctxt):
        return ctxt

    def sleep(self, ctxt, seconds):
        time.sleep(seconds)
        return 'slept'

    def record(self, ctxt, n):
        self._handled(ctxt, 'record', n=n)

    def fail(self, ctxt):
        raise ValueError('bad value')

    def downstream_timeout(self, ctxt):
        raise messaging.MessagingTimeout('the conductor timed out calling its own peer')

    def rename_widget(self, ctxt, widget, name):
        self._handled(ctxt, 'rename_widget', widget=widget, name=name)
        widget.name = name
        return widget


class AdminEndpoint(object):
    target = messaging.Target(namespace='admin', version='1.0')

    def ping(self, ctxt):
        return 'pong-admin'


class Peer(object):
    def __init__(self, url, exchange):
        messaging.set_transport_defaults(exchange)
        cfg.CONF(args=[], project='baton_oslo_peer', default_config_files=[])
        self.transport = messaging.get_rpc_transport(
            cfg.CONF, url=url,
            allowed_remote_exmods=['oslo_messaging.rpc.dispatcher',
                                   'oslo_messaging.exceptions'])
        self.serializer = ovo_base.VersionedObjectSerializer()
        self.servers = []

    def serve(self, command):
        target = messaging.Target(topic=command['topic'], server=command['server'])
        server = messaging.get_rpc_server(
            self.transport, target,
            [ConductorEndpoint(command['server']), AdminEndpoint()],
            executor='threading', serializer=self.serializer)
        server.start()
        self.servers.append(server)

    def request(self, command):
        target = messaging.Target(topic=command['topic'],
                                  version=command.get('version', '1.1'))
        client = messaging.get_rpc_client(self.transport, target,
                                          serializer=self.serializer)
        prepared = {key: command[key] for key in
                    ('server', 'fanout', 'namespace', 'timeout',
                     'call_monitor_timeout') if key in command}
        if prepared:
            client = client.prepare(**prepared)
        args = from_json(command.get('args', {}))
        context = command.get('context', {})
        if command['op'] == 'cast':
            client.cast(context, command['method'], **args)
            return None
        return to_json(client.call(context, command['method'], **args))

    def stop(self):
        for server in self.servers:
            server.stop()
        for server in self.servers:
            server.wait()
        self.transport.cleanup()


def run(peer, command):
    answer = {'id': command.get('id')}
    try:
        op = command['op']
        if op == 'serve':
            peer.serve(command)
            answer['result'] = None
        elif op in ('call', 'cast'):
            answer['result'] = peer.request(command)
        else:
            raise ValueError('unknown op %r' % op)
        answer['ok'] = True
    except Exception as error:  # every failure goes back to the test
        answer['ok'] = False
        answer['error'] = describe(error)
    emit(answer)


def main():
    url, exchange = sys.argv[1], sys.argv[2]
    peer = Peer(url, exchange)
    emit({'event': 'ready'})
    for line in sys.stdin:
        if not line.strip():
            continue
        command = json.loads(line)
        if command.get('op') == 'stop':
            peer.stop()
            emit({'id': command.get('id'), 'ok': True, 'result': None})
            return
        threading.Thread(target=run, args=(peer, command), daemon=True).start()
    peer.stop()


if __name__ == '__main__':
    main()
