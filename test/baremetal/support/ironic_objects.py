"""Real Ironic's objects, for Baton's interop tests (test/baremetal/objects).

Run with /usr/bin/python3 (Debian's python3-ironic). Reads one JSON request on stdin and
writes one JSON answer on stdout:

  {"op": "describe", "types": [...]}
      each type's fields (name, oslo type, nullable, default) and the versions its
      "# Version X.Y:" comments list
  {"op": "read", "primitives": [...]}
      each primitive read by IronicObjectSerializer as a conductor reads it (converted to
      Ironic's latest version), answered as {"version", "primitive"} re-serialized unpinned
  {"op": "write", "pin": "zed" or null, "objects": [{"name", "fields"}]}
      objects built from field values (a Node's "traits" as a list of names), serialized
      by IronicObjectSerializer as a conductor pinned to `pin` sends them
  {"op": "convert", "objects": [{"name", "fields", "version", "for": "db" or "wire"}]}
      objects built from field values, converted by Ironic's convert_to_version for the
      database (unavailable fields set) or the wire (removed), answered as primitives
  {"op": "releases", "names": [...]}
      the entries of Ironic's release mapping with those names
"""

import inspect
import json
import re
import sys

from oslo_versionedobjects import fields as ovo_fields

from ironic import objects
from ironic.conf import CONF
from ironic.objects.base import IronicObjectSerializer

objects.register_all()
CONF([], project='ironic', default_config_files=[], default_config_dirs=[])

VERSION_COMMENT = re.compile(r'^\s*# Version (\d+\.\d+):', re.MULTILINE)


def type_name(field_type):
    if isinstance(field_type, ovo_fields.List):
        return 'List(%s)' % type_name(field_type._element_type._type)
    if isinstance(field_type, ovo_fields.Object):
        return 'Object(%s)' % field_type._obj_name
    return type(field_type).__name__


def default_of(field):
    if field._default is ovo_fields.UnspecifiedDefault:
        return {'unspecified': True}
    return {'value': field._default}


def describe(names):
    result = {}
    for name in names:
        cls = getattr(objects, name)
        result[name] = {
            'version': cls.VERSION,
            'versions': VERSION_COMMENT.findall(inspect.getsource(cls)),
            'fields': {
                field: dict(type=type_name(spec._type), nullable=spec.nullable, **default_of(spec))
                for field, spec in cls.fields.items()
            },
        }
    return result


def build(name, fields):
    fields = dict(fields)
    if name == 'Node' and isinstance(fields.get('traits'), list):
        fields['traits'] = objects.TraitList(
            objects=[objects.Trait(trait=t) for t in fields['traits']])
    if name == 'TraitList':
        fields['objects'] = [objects.Trait(**t) for t in fields['objects']]
    return getattr(objects, name)(**fields)


def main():
    request = json.load(sys.stdin)
    op = request['op']
    if op == 'describe':
        answer = describe(request['types'])
    elif op == 'read':
        serializer = IronicObjectSerializer(is_server=True)
        answer = []
        for primitive in request['primitives']:
            obj = serializer.deserialize_entity(None, primitive)
            answer.append({'version': obj.VERSION, 'primitive': obj.obj_to_primitive()})
    elif op == 'write':
        if request.get('pin'):
            CONF.set_override('pin_release_version', request['pin'])
        serializer = IronicObjectSerializer(is_server=True)
        answer = [serializer.serialize_entity(None, build(o['name'], o['fields']))
                  for o in request['objects']]
    elif op == 'releases':
        from ironic.common import release_mappings
        answer = {name: release_mappings.RELEASE_MAPPING[name] for name in request['names']}
    elif op == 'convert':
        answer = []
        for o in request['objects']:
            obj = build(o['name'], o['fields'])
            obj.convert_to_version(o['version'],
                                   remove_unavailable_fields=o['for'] == 'wire')
            answer.append(obj.obj_to_primitive())
    else:
        raise SystemExit('unknown op %r' % op)
    json.dump(answer, sys.stdout)


if __name__ == '__main__':
    main()
