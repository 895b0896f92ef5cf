/**
 * oslo.versionedobjects vectors, sections `convert_to_version`, `db` and
 * `serializer`: Node 1.14 ⇄ 1.15 (`extra` → `meta`, the rolling-upgrade doc) for the wire
 * and for the database, saving under each pin, loading old rows, and
 * sending under a pin.
 *
 * Deliberate differences from Ironic, asserted below:
 * - conversions return a converted copy; Ironic converts the object in place
 *   (a process keeps its objects at the latest version, the rolling-upgrade doc);
 * - a wire conversion keeps the changes it made (the rolling-upgrade doc: "The converted
 *   object includes changes that resulted from the conversion"); Ironic
 *   resets them;
 * - every pinned service sends pinned versions (the rolling-upgrade doc); Ironic's API-side
 *   serializer never applies the pin;
 * - converted down for the database, the fields the target version lacks are
 *   removed, as on the wire; Ironic sets them to null (changed), so a pinned
 *   save erases what a newer release wrote there (docs/objects.md, "What an
 *   older version may change"). `withoutFieldsAbove` states the difference:
 *   everything else is Ironic's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  convertForDb,
  convertForWire,
  IncompatibleObjectVersionError,
  ObjectSerializer,
  objectFromDbRow,
  toPrimitive,
  type VersionedObject,
  versionChangesForDb,
} from '../../src/objects/index.ts';
import { ReleasePin } from '../../src/releases/index.ts';
import { Chassis, FAMILY_RELEASES, Node, NodeList, newRegistry } from './support/ironic-family.ts';
import {
  decode,
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

const CHANGES = 'ironic_object.changes';
const DATA = 'ironic_object.data';

/** Removes the `changed` lists (and primitive changes) where only they may differ. */
function withoutChanges(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutChanges);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'changed' || key === CHANGES) continue;
    result[key] = withoutChanges(item);
  }
  return result;
}

const json = (value: unknown): Json => JSON.parse(JSON.stringify(value));

/** Ironic's expected state with the fields `version` lacks removed instead of nulled. */
function withoutFieldsAbove(state: Json, version: string): Json {
  if (state.name === 'NodeList') {
    const childVersion = NodeList.childVersions?.[version] as string;
    const objects = (state.fields.objects as Json[]).map((child) => ({
      $object: withoutFieldsAbove(child.$object, childVersion),
    }));
    return { ...state, fields: { ...state.fields, objects } };
  }
  const type = state.name === 'Node' ? Node : undefined;
  if (type === undefined) return state;
  const kept = type.fieldsAt(version);
  const above = (name: string) => type.hasField(name) && !kept.has(name);
  const fields = Object.fromEntries(
    Object.entries(state.fields as Record<string, unknown>).filter(([name]) => !above(name)),
  );
  return {
    ...state,
    fields,
    unset: [...new Set([...state.unset, ...type.fieldNames.filter(above)])].sort(),
    changed: state.changed.filter((name: string) => !above(name)),
  };
}

/** Ironic's primitive of an object converted for the database, without the fields above its version. */
function primitiveWithoutFieldsAbove(primitive: Json): Json {
  if (primitive['ironic_object.name'] === 'NodeList') {
    const objects = (primitive[DATA].objects as Json[]).map(primitiveWithoutFieldsAbove);
    return { ...primitive, [DATA]: { ...primitive[DATA], objects } };
  }
  const version = primitive['ironic_object.version'];
  const kept = Node.fieldsAt(version);
  const above = (name: string) => Node.hasField(name) && !kept.has(name);
  const result = { ...primitive };
  result[DATA] = Object.fromEntries(
    Object.entries(primitive[DATA] as Record<string, unknown>).filter(([name]) => !above(name)),
  );
  if (primitive[CHANGES] !== undefined)
    result[CHANGES] = primitive[CHANGES].filter((name: string) => !above(name));
  return result;
}

describe('ovo vectors: convert_to_version', () => {
  for (const vector of vectors.convert_to_version as Json[]) {
    test(vector.id, () => {
      const before = objectFromState(vector.before);
      const convert = vector.remove_unavailable_fields ? convertForWire : convertForDb;
      const after = convert(before, vector.target);
      assert.deepEqual(
        stateOf(before),
        normalizeState(vector.before),
        'the original is left alone',
      );
      const expected = normalizeState(vector.after);
      if (!vector.remove_unavailable_fields) {
        // Down for the database: Ironic's result but for the fields the target lacks.
        const ours =
          vector.target === Node.version ? expected : withoutFieldsAbove(expected, vector.target);
        assert.deepEqual(stateOf(after), ours);
        assert.deepEqual(
          sortChanges(json(toPrimitive(after))),
          sortChanges(primitiveWithoutFieldsAbove(vector.obj_to_primitive_after.value)),
        );
        return;
      }
      // Wire form: same data and version as Ironic; the changes are kept (the rolling-upgrade doc).
      assert.deepEqual(withoutChanges(stateOf(after)), withoutChanges(expected));
      assert.deepEqual(
        withoutChanges(json(toPrimitive(after))),
        withoutChanges(vector.obj_to_primitive_after.value),
      );
      const kept = new Set(after.changedFields());
      for (const field of vector.before.changed)
        assert.ok(kept.has(field), `change of ${field} kept`);
    });
  }

  test('upgrade on the wire records meta and extra as changed (the rolling-upgrade doc example)', () => {
    const old = objectFromState(
      findCase(vectors.convert_to_version, 'up_1.14_to_1.15_remove=True').before,
    );
    assert.deepEqual([...convertForWire(old, '1.15').changedFields()].sort(), ['extra', 'meta']);
  });

  test('downgrade on the wire records extra as changed and removes meta', () => {
    const node = objectFromState(
      findCase(vectors.convert_to_version, 'down_1.15_to_1.14_remove=True').before,
    );
    const sent = convertForWire(node, '1.14');
    assert.equal(sent.isSet('meta'), false);
    assert.deepEqual([...sent.changedFields()], ['extra']);
  });
});

describe('ovo vectors: db', () => {
  for (const vector of (vectors.db as Json[]).filter((v) => v.before !== undefined)) {
    test(vector.id, () => {
      const obj = objectFromState(vector.before);
      const pin = ReleasePin.resolve(FAMILY_RELEASES, vector.pin ?? '');
      const run = (): unknown => versionChangesForDb(obj, pin);
      if (vector.do_version_changes_for_db.error !== undefined) {
        assert.throws(
          () => pin.objectVersion('Node', Node.version),
          IncompatibleObjectVersionError,
        );
        assert.throws(run, IncompatibleObjectVersionError);
      } else {
        assert.equal(pin.objectVersion('Node', Node.version), vector.get_target_version.value);
        // Ironic writes the fields the pinned version lacks as null; Baton leaves them out.
        const expected = normalizeExpected(vector.do_version_changes_for_db.value);
        const kept = Node.fieldsAt(pin.objectVersion('Node', Node.version));
        for (const name of Object.keys(expected))
          if (Node.hasField(name) && !kept.has(name)) delete expected[name];
        assert.deepEqual(encode(run()), expected);
      }
      // Ironic leaves the object converted to the pinned version; Baton leaves it at the latest.
      assert.deepEqual(stateOf(obj), normalizeState(vector.before));
    });
  }

  for (const vector of (vectors.db as Json[]).filter((v) => v.db_row !== undefined)) {
    test(vector.id, () => {
      const row = decode(vector.db_row) as Record<string, unknown>;
      if (vector.result.error !== undefined) {
        assert.throws(() => objectFromDbRow(Node, row), IncompatibleObjectVersionError);
        return;
      }
      assert.deepEqual(encode(objectFromDbRow(Node, row)), normalizeExpected(vector.result.value));
    });
  }

  test('a row with a NULL version is refused', () => {
    assert.throws(
      () => objectFromDbRow(Node, { id: 1, version: null }),
      IncompatibleObjectVersionError,
    );
  });
});

/** The changes Baton sends for a pinned object: its own plus the conversion's, among the data sent. */
function sentChanges(obj: VersionedObject, primitive: Json): string[] | undefined {
  const data = Object.keys(primitive[DATA]);
  const changes = new Set(obj.changedFields());
  if (
    obj.type.name === 'Node' &&
    obj.isSet('meta') &&
    primitive['ironic_object.version'] === '1.14'
  )
    changes.add('extra');
  const result = data.filter((name) => changes.has(name)).sort();
  return result.length > 0 ? result : undefined;
}

function entityFor(vector: Json): unknown {
  const objects = vectors.objects as Json[];
  if (vector.id.startsWith('nodelist')) return objectFromState(findCase(objects, 'nodelist').state);
  if (vector.id.startsWith('containers')) {
    const node = objectFromState(findCase(objects, 'node_minimal').state).resetChanges();
    const chassis = objectFromState(findCase(objects, 'chassis_full').state);
    return [node, { k: chassis }, ['t', 1]];
  }
  return objectFromState(findCase(objects, 'node_full').state);
}

describe('ovo vectors: serializer (send)', () => {
  for (const vector of vectors.serializer as Json[]) {
    test(vector.id, () => {
      const entity = entityFor(vector);
      const before = encode(entity);
      const pin = ReleasePin.resolve(FAMILY_RELEASES, vector.pin ?? '');
      const serializer = new ObjectSerializer(newRegistry(), pin);
      if (vector.serialize_entity.error !== undefined) {
        assert.throws(() => serializer.serializeEntity(entity), IncompatibleObjectVersionError);
        return;
      }
      const sent = json(serializer.serializeEntity(entity));
      assert.deepEqual(encode(entity), before, 'the sent entity is not modified');
      // Ironic's API side ignores the pin: what Baton sends there is what its server side sends.
      const twin = vector.is_server
        ? vector
        : findCase(vectors.serializer, vector.id.replace('False', 'True'));
      const expected = twin.serialize_entity.value;
      assert.deepEqual(withoutChanges(sent), withoutChanges(expected));
      // Objects converted for the pin keep their changes (the rolling-upgrade doc).
      const pairs: [Json, VersionedObject][] = Array.isArray(entity)
        ? [
            [sent[0], entity[0]],
            [sent[1].k, entity[1].k],
          ]
        : [[sent, entity as VersionedObject]];
      for (const [primitive, obj] of pairs) {
        assert.deepEqual(
          primitive[CHANGES] ? [...primitive[CHANGES]].sort() : undefined,
          sentChanges(obj, primitive),
        );
      }
    });
  }

  test('an unpinned serializer sends the latest version with the changes as they are', () => {
    const chassis = Chassis.create({ id: 1, tags: ['a'] });
    const sent = json(new ObjectSerializer(newRegistry()).serializeEntity({ c: chassis })) as Json;
    assert.equal(sent.c['ironic_object.version'], '1.4');
    assert.deepEqual(sent.c[CHANGES].sort(), ['id', 'tags']);
  });

  test('a pinned send followed by a receive restores the latest version with meta and extra changed', () => {
    const node = objectFromState(findCase(vectors.objects, 'node_full_reset').state);
    const sender = new ObjectSerializer(newRegistry(), ReleasePin.resolve(FAMILY_RELEASES, 'old'));
    const wire = json(sender.serializeEntity(node));
    assert.equal(wire['ironic_object.version'], '1.14');
    const received = new ObjectSerializer(newRegistry()).deserializeEntity(wire) as VersionedObject;
    assert.equal(received.version, '1.15');
    assert.deepEqual(received.get('meta'), node.get('meta'));
    assert.deepEqual(received.get('extra'), {});
    assert.deepEqual([...received.changedFields()].sort(), ['extra', 'meta']);
  });
});
