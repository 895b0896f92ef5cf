/** Property tests: what holds for any Node, not just the vectors' ones. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  convertForDb,
  convertForWire,
  ObjectSerializer,
  OffsetDateTime,
  toPrimitive,
  type VersionedObject,
  versionChangesForDb,
} from '../../src/objects/index.ts';
import { ReleasePin } from '../../src/releases/index.ts';
import { FAMILY_RELEASES, Node, newRegistry } from './support/ironic-family.ts';
import { stateOf } from './support/vectors.ts';

// Through JSON once, so -0 (which JSON cannot carry) does not appear.
const jsonValue = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)));
const jsonDict = fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 5 });
const instant = fc
  .record({
    seconds: fc.integer({ min: -30_000_000_000, max: 200_000_000_000 }),
    micros: fc.integer({ min: 0, max: 999_999 }),
    offset: fc.integer({ min: -23 * 60, max: 23 * 60 }),
  })
  .map(({ seconds, micros, offset }) => {
    const wall = new Date((seconds + offset * 60) * 1000);
    return OffsetDateTime.fromFields(
      {
        year: wall.getUTCFullYear(),
        month: wall.getUTCMonth() + 1,
        day: wall.getUTCDate(),
        hour: wall.getUTCHours(),
        minute: wall.getUTCMinutes(),
        second: wall.getUTCSeconds(),
        micros,
      },
      offset,
    );
  });

const node = fc
  .record(
    {
      id: fc.integer({ min: 0, max: 2 ** 31 }),
      uuid: fc.uuid(),
      name: fc.option(fc.string(), { nil: null }),
      driver: fc.string({ minLength: 1 }),
      extra: jsonDict,
      meta: jsonDict,
      properties: jsonDict,
      maintenance: fc.boolean(),
      chassis_id: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
      created_at: fc.option(instant, { nil: null }),
    },
    { requiredKeys: ['id', 'uuid', 'driver'] },
  )
  .chain((values) => fc.subarray(Object.keys(values)).map((changed) => ({ values, changed })))
  .map(({ values, changed }) => {
    const obj = Node.create(values as never).resetChanges();
    return obj.markChanged(changed);
  });

const wire = (value: unknown) => JSON.parse(JSON.stringify(value));

test('a primitive read back gives the same values and changes (microseconds are not sent, as in oslo)', () => {
  const registry = newRegistry();
  fc.assert(
    fc.property(node, (obj) => {
      const back = registry.fromPrimitive(wire(toPrimitive(obj)));
      const expected = stateOf(obj);
      const created = obj.peek('created_at');
      if (created) {
        expected.fields.created_at = {
          $datetime: created.isoformat().replace(/\.\d{6}/, ''),
          tzname: created.zoneName,
        };
      }
      assert.deepEqual(stateOf(back), expected);
    }),
    { numRuns: 300 },
  );
});

test('sending pinned to 1.14 and receiving at 1.15 keeps the metadata (meta → extra → meta)', () => {
  const sender = new ObjectSerializer(newRegistry(), ReleasePin.resolve(FAMILY_RELEASES, 'old'));
  const receiver = new ObjectSerializer(newRegistry());
  fc.assert(
    fc.property(node, (obj) => {
      const primitive = wire(sender.serializeEntity(obj));
      assert.equal(primitive['ironic_object.version'], '1.14');
      assert.equal('meta' in primitive['ironic_object.data'], false);
      const received = receiver.deserializeEntity(primitive) as VersionedObject;
      assert.equal(received.version, '1.15');
      // Without meta, the metadata travels in extra; with neither, meta starts empty.
      assert.deepEqual(received.peek('meta'), obj.peek('meta') ?? obj.peek('extra') ?? {});
      if (obj.isSet('meta') || obj.isSet('extra')) assert.deepEqual(received.peek('extra'), {});
      for (const field of obj.changedFields())
        if (obj.isSet(field)) assert.ok(received.changedFields().has(field));
    }),
    { numRuns: 200 },
  );
});

test('conversions never modify the object they are given', () => {
  fc.assert(
    fc.property(node, fc.constantFrom('1.0', '1.13', '1.14', '1.15'), (obj, target) => {
      const before = JSON.stringify(stateOf(obj));
      convertForWire(obj, target);
      convertForDb(obj, target);
      versionChangesForDb(obj, ReleasePin.resolve(FAMILY_RELEASES, 'old'));
      assert.equal(JSON.stringify(stateOf(obj)), before);
    }),
    { numRuns: 200 },
  );
});

test('converted down, for the database or the wire, an object drops exactly the fields the target lacks', () => {
  fc.assert(
    fc.property(node, (obj) => {
      const set = (o: VersionedObject) => o.type.fieldNames.filter((n) => o.isSet(n as never));
      const expected = new Set(set(obj));
      if (obj.isSet('meta')) expected.add('extra');
      expected.delete('meta');
      assert.deepEqual(new Set(set(convertForDb(obj, '1.14'))), expected);
      assert.deepEqual(new Set(set(convertForWire(obj, '1.14'))), expected);
      assert.equal(
        'meta' in versionChangesForDb(obj, ReleasePin.resolve(FAMILY_RELEASES, 'old')),
        false,
      );
    }),
    { numRuns: 200 },
  );
});

test('what is saved under a pin always carries the pinned version', () => {
  fc.assert(
    fc.property(
      node,
      fc.constantFrom('', 'old', 'transition', 'empty', 'master'),
      (obj, pinName) => {
        const changes = versionChangesForDb(obj, ReleasePin.resolve(FAMILY_RELEASES, pinName));
        assert.equal(changes.version, pinName === 'old' ? '1.14' : '1.15');
        if (pinName === 'old' && obj.isSet('meta'))
          assert.deepEqual(changes.extra, obj.get('meta'));
      },
    ),
    { numRuns: 200 },
  );
});
