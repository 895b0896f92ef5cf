import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  convertForDb,
  convertForWire,
  defineObjectType,
  FieldValueError,
  f,
  InvalidTargetVersionError,
  MalformedPrimitiveError,
  toPrimitive,
  UnknownFieldError,
  UnknownVersionError,
} from '../../src/objects/index.ts';
import { ObjectRegistry } from '../../src/objects/registry.ts';
import { IRONIC_NAMESPACE, Node } from './support/ironic-family.ts';

const NS = { project: 'baton', serial: 'baton_object' };

/** Three versions: 1.1 adds `size`, 1.2 adds `unit` (default 'GiB' when written for 1.1 readers). */
const Volume = defineObjectType({
  name: 'Volume',
  namespace: NS,
  fields: {
    id: f.integer(),
    size: f.integer({ nullable: true }),
    unit: f.enum(['GiB', 'TiB'], { nullable: true }),
    tags: f.listOfStrings({ default: [] }),
  },
  history: [
    { version: '1.0', note: 'Initial version' },
    { version: '1.1', note: 'Add size', added: ['size'] },
    {
      version: '1.2',
      note: 'Add unit; size may be in TiB',
      added: ['unit'],
      unavailableValues: { unit: 'GiB' },
      upgrade: (v) => {
        if (!v.isSet('unit')) v.assign('unit', 'GiB');
      },
      downgrade: (v) => {
        // Older readers only know GiB.
        if (v.peek('unit') === 'TiB' && typeof v.peek('size') === 'number')
          v.assign('size', (v.peek('size') as number) * 1024);
      },
    },
  ],
});

describe('object types', () => {
  test('the current version is the last step, and each version has its fields', () => {
    assert.equal(Volume.version, '1.2');
    assert.deepEqual([...Volume.fieldsAt('1.0')], ['id', 'tags']);
    assert.deepEqual([...Volume.fieldsAt('1.1')], ['id', 'size', 'tags']);
    assert.deepEqual([...Volume.fieldsAt('1.2')], ['id', 'size', 'unit', 'tags']);
    assert.throws(() => Volume.fieldsAt('1.3'), UnknownVersionError);
  });

  test('a bad history is refused when the type is defined', () => {
    const base = { name: 'X', namespace: NS, fields: { a: f.integer() } };
    assert.throws(() => defineObjectType({ ...base, history: [] }), /at least one version/);
    assert.throws(
      () => defineObjectType({ ...base, history: [{ version: '1', note: '' }] }),
      /X\.Y/,
    );
    assert.throws(
      () =>
        defineObjectType({
          ...base,
          history: [
            { version: '1.1', note: '' },
            { version: '1.0', note: '' },
          ],
        }),
      /increasing/,
    );
    assert.throws(
      () => defineObjectType({ ...base, history: [{ version: '1.0', note: '', added: ['b'] }] }),
      UnknownFieldError,
    );
  });

  test('an invalid default is refused when the field is declared', () => {
    assert.throws(() => f.integer({ default: 'seven' as never }), /not an integer/);
  });

  test('typed access: get returns the declared type; bad values name object, field and value', () => {
    const volume = Volume.create({ id: 1, size: 10 });
    const size: number | null = volume.get('size');
    assert.equal(size, 10);
    assert.throws(
      () => volume.assign('unit', 'PiB'),
      (e: unknown) => e instanceof FieldValueError && /Volume\.unit.*"PiB"/.test(e.message),
    );
    assert.throws(
      () => volume.assign('tags', ['a', null]),
      (e: unknown) => e instanceof FieldValueError && e.field === 'tags[1]',
    );
  });

  test('markChanged marks exactly the named fields, in any order, ignoring unknown names', () => {
    const names = ['id', 'size', 'unit', 'tags'];
    for (const marked of [
      ['id', 'size', 'unit', 'tags'],
      ['tags', 'unit', 'size', 'id'],
      ['unit', 'nope', 'id', 'unit', 'tags'],
      ['size', 'id'],
      [],
    ]) {
      const volume = Volume.create({ id: 1, size: 10, unit: 'GiB', tags: [] }).resetChanges();
      volume.markChanged(marked);
      assert.deepEqual(
        [...volume.changedFields()].sort(),
        names.filter((name) => marked.includes(name)).sort(),
        marked.join(','),
      );
    }
  });
});

describe('conversions across several steps', () => {
  const volume = () =>
    Volume.create({ id: 7, size: 2, unit: 'TiB', tags: ['fast'] }).resetChanges();

  test('downgrade for the wire runs each step newest first and removes what the target lacks', () => {
    const v10 = convertForWire(volume(), '1.0');
    assert.equal(v10.version, '1.0');
    assert.equal(v10.isSet('size'), false);
    assert.equal(v10.isSet('unit'), false);
    assert.deepEqual(toPrimitive(v10), {
      'baton_object.name': 'Volume',
      'baton_object.namespace': 'baton',
      'baton_object.version': '1.0',
      'baton_object.data': { id: 7, tags: ['fast'] },
    });
  });

  test('downgrade for the database removes what the target lacks too: a pinned write leaves those columns alone', () => {
    const v11 = convertForDb(volume(), '1.1');
    assert.equal(v11.get('size'), 2048);
    assert.equal(v11.isSet('unit'), false);
    // The step's own rule changed size; unit is not written at all.
    assert.deepEqual([...v11.changedFields()].sort(), ['size']);
    assert.deepEqual(v11.getChanges(), { size: 2048 });
  });

  test('upgrade runs each step oldest first, filling what the source lacked', () => {
    const old = convertForWire(volume(), '1.0');
    const latest = convertForWire(old, '1.2');
    assert.equal(latest.get('unit'), 'GiB');
    assert.equal(latest.get('size'), null);
  });

  test('fills are changes when read from the database, not when received over the wire', () => {
    const old = convertForWire(volume(), '1.0').resetChanges();
    assert.deepEqual([...convertForDb(old, '1.2').changedFields()].sort(), ['size', 'unit']);
    // unit is the 1.2 step's own rule (a change on both paths); size is only a fill.
    assert.deepEqual([...convertForWire(old, '1.2').changedFields()], ['unit']);
  });

  test("a step's own upgrade rule is a change on both paths", () => {
    const Moved = defineObjectType({
      name: 'Moved',
      namespace: NS,
      fields: {
        id: f.integer(),
        extra: f.string({ nullable: true }),
        meta: f.string({ nullable: true }),
      },
      history: [
        { version: '1.0', note: 'Initial version' },
        {
          version: '1.1',
          note: 'meta replaces extra',
          added: ['meta'],
          upgrade: (obj) => {
            obj.assign('meta', obj.peek('extra') ?? null);
            obj.assign('extra', null);
          },
          downgrade: (obj) => obj.assign('extra', obj.peek('meta') ?? null),
        },
      ],
    });
    const old = convertForWire(Moved.create({ id: 1, meta: 'm' }), '1.0').resetChanges();
    for (const convert of [convertForWire, convertForDb]) {
      const latest = convert(old, '1.1');
      assert.equal(latest.get('meta'), 'm');
      assert.deepEqual([...latest.changedFields()].sort(), ['extra', 'meta']);
    }
  });

  test("a type's conversion hook runs after the steps of every conversion, with the target", () => {
    const seen: string[] = [];
    const Hooked = defineObjectType({
      name: 'Hooked',
      namespace: NS,
      fields: { id: f.integer(), note: f.string({ nullable: true }) },
      history: [
        { version: '1.0', note: 'Initial version' },
        { version: '1.1', note: 'Add note', added: ['note'] },
        { version: '1.2', note: 'Methods only' },
      ],
      onConversion: (obj, target) => seen.push(`${obj.version}->${target}:${obj.isSet('note')}`),
    });
    const latest = Hooked.create({ id: 1, note: 'x' });
    convertForWire(convertForWire(latest, '1.0'), '1.1');
    convertForDb(latest, '1.1');
    convertForDb(latest, '1.2');
    // Down to 1.0: called once the note is removed; up again, once it is filled; no call
    // when the version does not change.
    assert.deepEqual(seen, ['1.2->1.0:false', '1.0->1.1:true', '1.2->1.1:true']);
  });

  test('converting to a version the type never had is a clear error', () => {
    assert.throws(
      () => convertForWire(volume(), '1.7'),
      /Volume has no version '1.7'; known versions: 1.0, 1.1, 1.2/,
    );
    assert.throws(() => convertForDb(volume(), '0.9'), UnknownVersionError);
    assert.throws(() => toPrimitive(volume(), '1.3'), InvalidTargetVersionError);
  });
});

describe('reading primitives', () => {
  const registry = new ObjectRegistry(IRONIC_NAMESPACE, [Node]);
  for (const [what, primitive] of [
    ['a non-object', 'Node'],
    ['no name', { 'ironic_object.namespace': 'ironic' }],
    ['no namespace', { 'ironic_object.name': 'Node' }],
    [
      'a bad version',
      {
        'ironic_object.name': 'Node',
        'ironic_object.namespace': 'ironic',
        'ironic_object.version': 'x',
      },
    ],
    [
      'changes that are not a list',
      {
        'ironic_object.name': 'Node',
        'ironic_object.namespace': 'ironic',
        'ironic_object.version': '1.15',
        'ironic_object.data': {},
        'ironic_object.changes': 'id',
      },
    ],
  ] as const) {
    test(`${what} is refused as malformed`, () => {
      assert.throws(() => registry.fromPrimitive(primitive), MalformedPrimitiveError);
    });
  }

  test('entries of changes that name no field (not even strings) are ignored, as in oslo', () => {
    const node = registry.fromPrimitive({
      'ironic_object.name': 'Node',
      'ironic_object.namespace': 'ironic',
      'ironic_object.version': '1.15',
      'ironic_object.data': { id: 1, name: 'n1', driver: 'ipmi' },
      'ironic_object.changes': [7, null, { name: true }, 'nope', 'driver', ['id'], 'name'],
    });
    assert.deepEqual([...node.changedFields()].sort(), ['driver', 'name']);
    assert.equal(node.get('id'), 1);
  });

  test('a registry refuses a type of another namespace or a name given twice', () => {
    assert.throws(() => new ObjectRegistry(NS, [Node]), /namespace/);
    assert.throws(() => new ObjectRegistry(IRONIC_NAMESPACE, [Node, Node]), /twice/);
  });
});
