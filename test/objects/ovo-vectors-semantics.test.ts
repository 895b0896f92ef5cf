/**
 * oslo.versionedobjects vectors, sections `object_semantics`, `versions` and
 * `classes`: how instances track changes, defaults, read-only fields and
 * copies, how versions compare, and that the family's field tables (types,
 * nullability, defaults) are the ones the Python family declares.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defineObjectType,
  FieldValueError,
  f,
  IncompatibleObjectVersionError,
  isCompatibleVersion,
  maxObjectVersion,
  NoDefaultError,
  type ObjectType,
  ReadOnlyFieldError,
  toPrimitive,
  UnknownFieldError,
  UnsetFieldError,
} from '../../src/objects/index.ts';
import { ReleasePin } from '../../src/releases/index.ts';
import {
  Chassis,
  FAMILY_RELEASES,
  IRONIC_NAMESPACE,
  Node,
  NodeList,
  newRegistry,
  OldNode,
  Port,
} from './support/ironic-family.ts';
import {
  encode,
  findCase,
  type Json,
  normalizeExpected,
  normalizeState,
  objectFromState,
  sortChanges,
  stateOf,
  vectors,
} from './support/vectors.ts';

const semantics = (id: string): Json => findCase(vectors.object_semantics, id).result;
const nodeFull = () => objectFromState(findCase(vectors.objects, 'node_full').state);
const nodeMinimal = () => objectFromState(findCase(vectors.objects, 'node_minimal').state);

describe('ovo vectors: object_semantics', () => {
  test('constructor_marks_changed', () => {
    assert.deepEqual(
      stateOf(Node.create({ id: 5, name: 'n' })),
      normalizeState(semantics('constructor_marks_changed').value.$object),
    );
  });

  test('same_value_is_change', () => {
    const node = nodeMinimal().resetChanges();
    node.set('driver', node.get('driver'));
    assert.deepEqual([...node.changedFields()], semantics('same_value_is_change').value);
  });

  test('inplace_dict_mutation_not_tracked', () => {
    const node = Node.create({ properties: { a: 1 } }).resetChanges();
    const properties = node.get('properties') as Record<string, unknown>;
    properties.new = 1;
    assert.deepEqual(
      {
        changed: [...node.changedFields()],
        properties_has_new: 'new' in (node.get('properties') ?? {}),
      },
      semantics('inplace_dict_mutation_not_tracked').value,
    );
  });

  test('flexdict_coerce_copies', () => {
    const given: Record<string, unknown> = { a: 1 };
    const node = Node.create({ properties: given });
    given.b = 2;
    assert.deepEqual(node.get('properties'), semantics('flexdict_coerce_copies').value);
  });

  test('failed_set_keeps_value (the error names the object, the field and the value)', () => {
    const node = nodeMinimal().resetChanges();
    assert.throws(
      () => node.assign('id', 'abc'),
      (error: unknown) =>
        error instanceof FieldValueError &&
        error.objectName === 'Node' &&
        error.field === 'id' &&
        error.value === 'abc' &&
        /Node\.id.*"abc"/.test(error.message),
    );
    const expected = semantics('failed_set_keeps_value').value;
    assert.equal(node.get('id'), expected.id);
    assert.deepEqual([...node.changedFields()], expected.changed);
  });

  test('unset_field_access', () => {
    assert.throws(() => Node.create().get('name'), UnsetFieldError);
    assert.equal(Node.create().peek('name'), undefined);
  });

  test('obj_attr_is_set_unknown', () => {
    assert.throws(() => Node.create().isSet('nope' as never), UnknownFieldError);
    assert.throws(() => Node.create().assign('nope', 1), UnknownFieldError);
  });

  test('obj_set_defaults', () => {
    const port = Port.create({ id: 1 });
    const expected = semantics('obj_set_defaults').value;
    assert.deepEqual([...port.changedFields()], expected.before_changed);
    port.setDefaults();
    assert.deepEqual(stateOf(port), normalizeState(expected.after));
  });

  test('obj_set_defaults_named', () => {
    const chassis = Chassis.create({ id: 1 }).setDefaults('tags');
    const expected = semantics('obj_set_defaults_named').value;
    assert.deepEqual(stateOf(chassis), normalizeState(expected.state));
    assert.throws(() => chassis.setDefaults('uuid'), NoDefaultError);
  });

  test('none_with_default', () => {
    const port = Port.create({ id: 1 });
    port.assign('pxe_enabled', null);
    port.assign('is_smartnic', null);
    assert.deepEqual(stateOf(port), normalizeState(semantics('none_with_default').value));
  });

  test('delattr_keeps_changed_name', () => {
    const node = nodeFull().unset('meta');
    const expected = semantics('delattr_keeps_changed_name').value;
    assert.deepEqual([...node.changedFields()].sort(), expected.what_changed);
    assert.deepEqual(
      sortChanges(JSON.parse(JSON.stringify(toPrimitive(node)))),
      sortChanges(expected.primitive),
    );
  });

  test('obj_get_changes', () => {
    assert.deepEqual(encode(nodeMinimal().getChanges()), semantics('obj_get_changes').value);
  });

  test('obj_reset_changes_fields', () => {
    const node = nodeFull().resetChanges(['name', 'meta', 'bogus']);
    assert.deepEqual([...node.changedFields()].sort(), semantics('obj_reset_changes_fields').value);
  });

  test('as_dict', () => {
    assert.deepEqual(encode(nodeFull().asDict()), normalizeExpected(semantics('as_dict').value));
  });

  test('obj_clone (a deep copy: editing the clone leaves the original alone)', () => {
    const node = nodeFull();
    const clone = node.clone();
    const expected = semantics('obj_clone').value;
    assert.deepEqual(toPrimitive(clone), toPrimitive(node));
    assert.equal(expected.equal_primitive, true);
    assert.deepEqual(stateOf(clone), normalizeState(expected.state));
    (clone.get('properties') as Record<string, unknown>).cpus = 1;
    assert.equal((node.get('properties') as Record<string, unknown>).cpus, 64);
  });

  test('read_only', () => {
    const Ro = defineObjectType({
      name: 'RO',
      namespace: IRONIC_NAMESPACE,
      fields: { a: f.integer({ readOnly: true }) },
      history: [{ version: '1.0', note: 'Initial version' }],
    });
    const ro = Ro.create({ a: 1 });
    ro.set('a', 1);
    assert.equal(semantics('read_only').value.same_ok, true);
    assert.throws(() => ro.set('a', 2), ReadOnlyFieldError);
    assert.equal(ro.get('a'), 1);
  });

  test('list_ops: a list object holds its children in a plain array field', () => {
    // oslo list objects behave as Python sequences; Baton's keep an `objects` array.
    const list = objectFromState(findCase(vectors.objects, 'nodelist').state);
    const expected = semantics('list_ops').value;
    assert.equal((list.get('objects' as never) as unknown[]).length, expected.len);
    const slice = NodeList.create({
      objects: (list.get('objects' as never) as never[]).slice(0, 1),
    });
    assert.equal(slice.type.name, expected.slice_type);
    assert.deepEqual([...slice.changedFields()].sort(), expected.slice_changed);
  });

  test('repr: toString names the type, version and set fields', () => {
    // oslo's repr is Python syntax; Baton's is a debugging aid, not a wire format.
    assert.match(
      nodeMinimal().toString(),
      /^Node@1\.15\(id=1,uuid="e3f0c7b6-[^)]*maintenance=true\)$/,
    );
  });
});

describe('ovo vectors: versions', () => {
  test('is_compatible', () => {
    for (const row of vectors.versions.is_compatible as Json[]) {
      assert.equal(
        isCompatibleVersion(row.requested, row.current),
        row.is_compatible,
        JSON.stringify(row),
      );
    }
  });

  test('the class chosen for a received Node version', () => {
    const registry = newRegistry();
    for (const row of vectors.versions.obj_class_from_name_Node as Json[]) {
      const primitive = {
        'ironic_object.name': 'Node',
        'ironic_object.namespace': 'ironic',
        'ironic_object.version': row.objver,
        'ironic_object.data': {},
      };
      if (row.result.error !== undefined) {
        assert.throws(
          () => registry.fromPrimitive(primitive),
          IncompatibleObjectVersionError,
          row.objver,
        );
      } else {
        assert.equal(registry.fromPrimitive(primitive).type.version, row.result.class_version);
      }
    }
  });

  test('max_version', () => {
    for (const [list, expected] of Object.entries(
      vectors.versions.max_version as Record<string, string>,
    )) {
      const versions = JSON.parse(list.replaceAll("'", '"'));
      assert.equal(maxObjectVersion(versions), expected);
    }
  });

  test('obj_tree_get_versions: the list and its child at their current versions', () => {
    assert.deepEqual(
      { NodeList: NodeList.version, Node: NodeList.childVersions?.[NodeList.version] },
      vectors.versions.obj_tree_get_versions_NodeList,
    );
  });

  test('supports_version under a pin', () => {
    const supports = (pin: string) =>
      ReleasePin.resolve(FAMILY_RELEASES, pin).objectVersion('Node', Node.version) === '1.15';
    assert.equal(supports(''), vectors.versions.supports_version['unpinned (1,15)']);
    assert.equal(supports('old'), vectors.versions.supports_version['pin=old (1,15)']);
  });
});

describe('ovo vectors: classes', () => {
  const ours = { 'Node@1.15': Node, 'Node@1.14': OldNode, NodeList, Port, Chassis };
  for (const [key, cls] of Object.entries(vectors.classes as Record<string, Json>)) {
    test(`${key} declares the same fields`, () => {
      const type: ObjectType | undefined = Object.entries(ours).find(
        ([name]) => name === key || name === key.split('@')[0],
      )?.[1];
      assert.ok(type, key);
      assert.equal(type.version, cls.version);
      const kinds: Record<string, string> = { FlexibleDict: 'FlexibleDict' };
      const expected = (cls.fields as Json[])
        .map((field) => [
          field.name,
          kinds[field.type] ?? field.type,
          field.nullable,
          field.has_default,
          field.default,
        ])
        .sort();
      const actual = type.fieldNames
        .map((name) => {
          const spec = type.fields[name];
          assert.ok(spec);
          const kind =
            spec.type.kind === 'List' && String(spec.type.detail).startsWith('Object:')
              ? 'List'
              : spec.type.kind;
          return [
            name,
            kind,
            spec.nullable,
            spec.hasDefault,
            spec.hasDefault ? encode(spec.default) : null,
          ];
        })
        .sort();
      assert.deepEqual(actual, expected);
      const methods = cls.remotable_methods as [string, string][];
      assert.deepEqual(Object.keys(type.remotable).sort(), methods.map(([name]) => name).sort());
      for (const [name, spec] of methods) {
        const list = (key: string): string[] =>
          (new RegExp(`${key}=\\[([^\\]]*)\\]`).exec(spec)?.[1] ?? '')
            .split(',')
            .map((a) => a.trim().replaceAll("'", ''))
            .filter(Boolean);
        const single = (key: string): string | undefined =>
          new RegExp(`${key}='(\\w+)'`).exec(spec)?.[1];
        const params: { name: string; kind: string }[] = (type.remotable[name]?.params ?? []).map(
          (p) =>
            typeof p === 'string'
              ? { name: p, kind: 'positional' }
              : { name: p.name, kind: p.kind ?? 'positional' },
        );
        const names = (kind: string): string[] =>
          params.filter((p) => p.kind === kind).map((p) => p.name);
        assert.deepEqual(
          names('positional'),
          list('args').slice(1),
          `${name} positional parameters`,
        );
        assert.deepEqual(
          names('keyword-only'),
          list('kwonlyargs'),
          `${name} keyword-only parameters`,
        );
        assert.deepEqual(
          names('rest'),
          single('varargs') ? [single('varargs')] : [],
          `${name} *args`,
        );
        assert.deepEqual(
          names('keywords'),
          single('(?:varkw|keywords)') ? [single('(?:varkw|keywords)')] : [],
          `${name} **kwargs`,
        );
      }
    });
  }
});
