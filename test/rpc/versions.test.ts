/** The version rules and tables of src/rpc, and the transport configuration. Pure. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTransport } from '../../src/rpc/config.ts';
import {
  compareRpcVersions,
  defineRpcVersions,
  LocalTransport,
  RpcClient,
  RpcConfigError,
  readRpcConfig,
  rpcVersionWithin,
} from '../../src/rpc/index.ts';

test('a version is within a limit when the major matches and the minor is not above it', () => {
  assert.equal(rpcVersionWithin('1.2', '1.2'), true);
  assert.equal(rpcVersionWithin('1.0', '1.15'), true);
  assert.equal(rpcVersionWithin('1.9', '1.15'), true); // 9 < 15 as integers
  assert.equal(rpcVersionWithin('1.16', '1.15'), false);
  assert.equal(rpcVersionWithin('2.0', '1.15'), false);
  assert.equal(rpcVersionWithin('1.0', '2.0'), false);
  assert.equal(rpcVersionWithin('1', '1.0'), false);
  assert.ok(compareRpcVersions('1.10', '1.9') > 0);
});

test('canSendVersion follows the cap; without a cap anything goes', () => {
  const transport = new LocalTransport();
  const capped = new RpcClient({ transport, topic: 't', version: '1.5', versionCap: '1.3' });
  assert.equal(capped.canSendVersion('1.3'), true);
  assert.equal(capped.canSendVersion('1.4'), false);
  assert.equal(capped.canSendVersion('2.0'), false);
  assert.equal(capped.prepare({ server: 'x' }).versionCap, '1.3');
  const free = new RpcClient({ transport, topic: 't', version: '1.5' });
  assert.equal(free.canSendVersion('9.9'), true);
  assert.throws(() => new RpcClient({ transport, topic: 't', version: 'one' }), RangeError);
});

test('a versions table names the versions code branches on, and refuses disorder', () => {
  const table = defineRpcVersions([
    { version: '1.0', note: 'initial' },
    { version: '1.1', note: 'reason', name: 'reason' },
    { version: '1.10', note: 'meta', name: 'meta' },
  ]);
  assert.equal(table.latest, '1.10');
  assert.deepEqual(table.named, { reason: '1.1', meta: '1.10' });
  assert.throws(() => defineRpcVersions([]), /at least one/);
  assert.throws(
    () =>
      defineRpcVersions([
        { version: '1.2', note: '' },
        { version: '1.1', note: '' },
      ]),
    /must come after/,
  );
  assert.throws(
    () =>
      defineRpcVersions([
        { version: '1.0', note: '', name: 'a' },
        { version: '1.1', note: '', name: 'a' },
      ]),
    /used twice/,
  );
  assert.throws(() => defineRpcVersions([{ version: '1.x', note: '' }]), /not an RPC version/);
});

test('rpc_transport and its URL: http by default on loopback; amqp; refused when wrong', () => {
  const http = readRpcConfig({});
  assert.equal(http.transport, 'http');
  assert.equal(http.url.hostname, '127.0.0.1');
  const amqp = readRpcConfig({
    rpc_transport: 'amqp',
    rpc_transport_url: 'amqp://u:p@broker:5672/vh',
    rpc_exchange: 'ironic',
  });
  assert.equal(amqp.transport, 'amqp');
  assert.equal(amqp.exchange, 'ironic');
  assert.equal(readRpcConfig({ rpc_transport: 'http', rpc_shared_secret: 'x' }).sharedSecret, 'x');
  assert.throws(
    () => readRpcConfig({ rpc_transport: 'zeromq' }),
    (e: unknown) => e instanceof RpcConfigError && /one of local, http, amqp/.test(e.message),
  );
  assert.throws(
    () => readRpcConfig({ rpc_transport: 'amqp', rpc_transport_url: 'http://x' }),
    /must start with amqp:/,
  );
  assert.throws(
    () => readRpcConfig({ rpc_transport: 'http', rpc_transport_url: 'not a url' }),
    /not a URL/,
  );
  assert.throws(
    () => readRpcConfig({ rpc_transport: 'http', rpc_transport_url: 'http://h:1/path' }),
    /listen address/,
  );
  assert.throws(() => createTransport(http), /needs a peer directory/);
  assert.equal(createTransport(readRpcConfig({ rpc_transport: 'local' })).kind, 'local');
});
