/**
 * The bare metal objects against the real ones: Debian's Ironic 21.4.4 objects (Node 1.37,
 * Port 1.11, Portgroup 1.5), which are zed's plus the next release's fields. Baton must have
 * exactly zed's fields and versions, real Ironic must read what Baton sends with the same
 * values, and Baton must read what a real conductor pinned to zed sends.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addedFields } from '../../../src/baremetal/objects/history.ts';
import {
  BAREMETAL_OBJECT_TYPES,
  BAREMETAL_OBJECTS,
  IRONIC_NAMESPACE,
  Node,
  Port,
} from '../../../src/baremetal/objects/index.ts';
import {
  convertForDb,
  convertForWire,
  defineObjectType,
  f,
  IncompatibleObjectVersionError,
  ObjectRegistry,
  ObjectSerializer,
  type ObjectType,
  toPrimitive,
  type VersionedObject,
} from '../../../src/objects/index.ts';
import { SAMPLE_FIELDS, sampleObject } from '../support/object-samples.ts';
import { askRealIronic, realIronicUnavailable } from '../support/real-ironic.ts';

/** What Ironic 21.4 added after zed, which Baton's first release must not have. */
const NEXT_RELEASE: Record<string, { version: string; fields: string[]; sample: unknown }> = {
  Node: { version: '1.37', fields: ['shard'], sample: 'shard-1' },
  Port: { version: '1.11', fields: ['node_uuid'], sample: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' },
  Portgroup: {
    version: '1.5',
    fields: ['node_uuid'],
    sample: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
  },
};

interface RealField {
  type: string;
  nullable: boolean;
  unspecified?: true;
  value?: unknown;
}
interface RealType {
  version: string;
  versions: string[];
  fields: Record<string, RealField>;
}

/** Baton's field type in the notation of ironic_objects.py. */
function typeName(type: ObjectType, field: string): string {
  const spec = type.fields[field];
  assert.ok(spec, `${type.name}.${field}`);
  const { kind, detail } = spec.type;
  if (kind === 'List') {
    return detail?.startsWith('Object:')
      ? `List(Object(${detail.slice('Object:'.length)}))`
      : `List(${detail})`;
  }
  if (kind === 'Object') return `Object(${detail})`;
  return kind;
}

/** A primitive's data with every `changes` key dropped, nested ones included. */
function dataOf(primitive: unknown): unknown {
  if (Array.isArray(primitive)) return primitive.map(dataOf);
  if (primitive === null || typeof primitive !== 'object') return primitive;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(primitive)) {
    if (key !== 'ironic_object.changes') result[key] = dataOf(value);
  }
  return result;
}

/**
 * The versions real Ironic's `_convert_to_version` handles fully (Node from 1.22, Port from
 * 1.6): older versions lose fields Ironic does not convert (see docs/baremetal.md).
 */
const CONVERTED = [
  { type: Node, versions: range(21, 35) },
  { type: Port, versions: range(6, 9) },
];

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => `1.${from + i}`);
}

const wireData = (obj: VersionedObject) =>
  (dataOf(toPrimitive(obj)) as Record<string, unknown>)['ironic_object.data'] as Record<
    string,
    unknown
  >;

describe('bare metal objects and the real Ironic objects', async () => {
  const unavailable = await realIronicUnavailable();
  if (unavailable !== undefined) {
    test(unavailable, { skip: unavailable }, () => {});
    return;
  }

  test('each type has exactly the real fields, types, nullability and defaults of zed', async () => {
    const names = BAREMETAL_OBJECT_TYPES.map((type) => type.name);
    const real = await askRealIronic<Record<string, RealType>>({ op: 'describe', types: names });
    for (const type of BAREMETAL_OBJECT_TYPES) {
      const expected = { ...real[type.name]?.fields };
      for (const field of NEXT_RELEASE[type.name]?.fields ?? []) delete expected[field];
      assert.deepEqual(
        type.fieldNames,
        Object.keys(expected),
        `${type.name} field names and order`,
      );
      for (const [field, spec] of Object.entries(expected)) {
        const ours = type.fields[field];
        assert.ok(ours);
        const what = `${type.name}.${field}`;
        assert.equal(typeName(type, field), spec.type, `${what} type`);
        assert.equal(ours.nullable, spec.nullable, `${what} nullable`);
        assert.equal(ours.hasDefault, spec.unspecified !== true, `${what} has a default`);
        if (ours.hasDefault) assert.deepEqual(ours.default, spec.value, `${what} default`);
      }
    }
  });

  test('each type has every version of the real history up to zed, and zed is its latest', async () => {
    const names = BAREMETAL_OBJECT_TYPES.map((type) => type.name);
    const real = await askRealIronic<Record<string, RealType>>({ op: 'describe', types: names });
    for (const type of BAREMETAL_OBJECT_TYPES) {
      const next = NEXT_RELEASE[type.name]?.version;
      const realVersions = real[type.name]?.versions.filter((v) => v !== next);
      assert.deepEqual(type.knownVersions(), realVersions, type.name);
      assert.equal(real[type.name]?.version, next ?? type.version, `${type.name} real latest`);
    }
  });

  test('real Ironic reads what Baton sends at zed versions, with the same values', async () => {
    const sent = BAREMETAL_OBJECT_TYPES.map((type) => toPrimitive(sampleObject(type)));
    const read = await askRealIronic<{ version: string; primitive: unknown }[]>({
      op: 'read',
      primitives: sent,
    });
    BAREMETAL_OBJECT_TYPES.forEach((type, i) => {
      const answer = read[i];
      assert.ok(answer);
      const next = NEXT_RELEASE[type.name];
      // Read as a conductor reads: converted to its own latest version.
      assert.equal(answer.version, next?.version ?? type.version, type.name);
      const theirs = {
        ...((dataOf(answer.primitive) as Record<string, Record<string, unknown>>)[
          'ironic_object.data'
        ] ?? {}),
      };
      for (const field of next?.fields ?? []) {
        // Not sent; a real server sets an added field to its default, null here.
        if (field in theirs) assert.equal(theirs[field], null, `${type.name}.${field}`);
        delete theirs[field];
      }
      assert.deepEqual(theirs, (dataOf(sent[i]) as Record<string, unknown>)['ironic_object.data']);
    });
  });

  test('Baton reads what a real conductor pinned to zed sends, at the latest version, with the same values', async () => {
    const objects = BAREMETAL_OBJECT_TYPES.map((type) => ({
      name: type.name,
      fields: {
        ...SAMPLE_FIELDS[type.name],
        // The next release's fields are set: the pin must leave them out.
        ...Object.fromEntries(
          (NEXT_RELEASE[type.name]?.fields ?? []).map((f) => [f, NEXT_RELEASE[type.name]?.sample]),
        ),
      },
    }));
    const primitives = await askRealIronic<Record<string, unknown>[]>({
      op: 'write',
      pin: 'zed',
      objects,
    });
    const serializer = new ObjectSerializer(BAREMETAL_OBJECTS);
    BAREMETAL_OBJECT_TYPES.forEach((type, i) => {
      const primitive = primitives[i];
      assert.ok(primitive);
      assert.equal(primitive['ironic_object.version'], type.version, `${type.name} sent pinned`);
      const obj = serializer.deserializeEntity(primitive) as VersionedObject;
      assert.equal(obj.type, type);
      assert.equal(obj.version, type.version);
      assert.deepEqual(wireData(obj), wireData(sampleObject(type)), type.name);
    });
  });

  test('conversion to an older version gives the real values, for the database and for the wire', async () => {
    const cases = CONVERTED.flatMap(({ type, versions }) =>
      versions.flatMap((version) =>
        (['db', 'wire'] as const).map((mode) => ({ type, version, mode })),
      ),
    );
    const real = await askRealIronic<unknown[]>({
      op: 'convert',
      objects: cases.map(({ type, version, mode }) => ({
        name: type.name,
        fields: SAMPLE_FIELDS[type.name],
        version,
        for: mode,
      })),
    });
    cases.forEach(({ type, version, mode }, i) => {
      const convert = mode === 'db' ? convertForDb : convertForWire;
      const ours = convert(sampleObject(type), version);
      assert.equal(ours.version, version);
      assert.deepEqual(
        wireData(ours),
        (dataOf(real[i]) as Record<string, unknown>)['ironic_object.data'],
        `${type.name} ${version} for the ${mode}`,
      );
    });
  });

  test('an older object brought up to the latest version gets the real values', async () => {
    // Internal info without a tenant VIF, so Port 1.8's copy from extra has work to do.
    const port = sampleObject(Port).assign('internal_info', { other: 1 });
    const cases = CONVERTED.flatMap(({ type, versions }) =>
      versions.map((version) => ({
        type,
        version,
        sent: type === Port ? port : sampleObject(type),
      })),
    );
    const sent = cases.map(({ sent, version }) => toPrimitive(sent, version));
    const real = await askRealIronic<{ primitive: unknown }[]>({ op: 'read', primitives: sent });
    const serializer = new ObjectSerializer(BAREMETAL_OBJECTS);
    cases.forEach(({ type, version }, i) => {
      const ours = serializer.deserializeEntity(sent[i]) as VersionedObject;
      assert.equal(ours.version, type.version);
      const theirs = {
        ...((dataOf(real[i]?.primitive) as Record<string, Record<string, unknown>>)[
          'ironic_object.data'
        ] ?? {}),
      };
      for (const field of NEXT_RELEASE[type.name]?.fields ?? []) delete theirs[field];
      assert.deepEqual(wireData(ours), theirs, `${type.name} from ${version}`);
    });
    const upgradedPort = serializer.deserializeEntity(toPrimitive(port, '1.7')) as VersionedObject;
    assert.deepEqual(upgradedPort.get('internal_info'), { other: 1, tenant_vif_port_id: 'a-vif' });
  });

  test("the next release's Node 1.37 is one field and one step away, and then reads real 1.37", async () => {
    const { created_at, updated_at, ...fields } = Node.fields;
    const NextNode = defineObjectType({
      name: Node.name,
      namespace: Node.namespace,
      fields: { ...fields, shard: f.string({ nullable: true }), created_at, updated_at },
      history: [...Node.history, addedFields('1.37', 'Add shard field', { shard: null })],
    });
    const real = await askRealIronic<Record<string, RealType>>({ op: 'describe', types: ['Node'] });
    assert.deepEqual(NextNode.fieldNames, Object.keys(real.Node?.fields ?? {}));
    assert.deepEqual(NextNode.knownVersions(), real.Node?.versions);
    const [primitive] = await askRealIronic<unknown[]>({
      op: 'write',
      pin: null,
      objects: [{ name: 'Node', fields: { ...SAMPLE_FIELDS.Node, shard: 'shard-1' } }],
    });
    const registry = new ObjectRegistry(IRONIC_NAMESPACE, [
      NextNode,
      ...BAREMETAL_OBJECT_TYPES.filter((t) => t.name !== 'Node'),
    ]);
    const read = new ObjectSerializer(registry).deserializeEntity(primitive) as VersionedObject;
    assert.equal(read.version, '1.37');
    assert.equal(read.get('shard'), 'shard-1');
    // Pinned to zed, it sends 1.36 without the shard, as a real pinned conductor does.
    const sent = new ObjectSerializer(registry, {
      objectVersion: (_n, latest) => (latest === '1.37' ? '1.36' : latest),
    }).serializeEntity(read) as Record<string, unknown>;
    assert.equal(sent['ironic_object.version'], '1.36');
    assert.equal('shard' in (sent['ironic_object.data'] as object), false);
  });

  test('an unpinned real Node 1.37 is refused by Baton as an incompatible version', async () => {
    const [primitive] = await askRealIronic<unknown[]>({
      op: 'write',
      pin: null,
      objects: [{ name: 'Node', fields: { ...SAMPLE_FIELDS.Node, shard: 'shard-1' } }],
    });
    assert.throws(
      () => new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(primitive),
      IncompatibleObjectVersionError,
    );
  });
});
