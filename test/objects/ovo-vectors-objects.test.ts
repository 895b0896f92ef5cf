/**
 * oslo.versionedobjects vectors, `objects` section: each object is rebuilt
 * from its recorded state (and, where the vector has one, from its
 * construction input), and its primitives at every target version must be
 * JSON-equal to what the real library produced (changes compared as sets).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  InvalidTargetVersionError,
  toPrimitive,
  UnknownVersionError,
} from '../../src/objects/index.ts';
import { Node } from './support/ironic-family.ts';
import {
  decode,
  type Json,
  normalizeState,
  objectFromState,
  sortChanges,
  stateOf,
  vectors,
} from './support/vectors.ts';

/**
 * Where Baton deliberately differs from oslo, by `<object id> <target>`.
 * Each entry says what Baton does instead and why.
 */
const DEVIATIONS: Record<
  string,
  { error?: unknown; reason: string; adjust?: (expected: Json) => Json }
> = {
  'node_full target=0.9': {
    error: UnknownVersionError,
    reason:
      'Node never had version 0.9; oslo accepts any lower target, Baton refuses versions the type does not know',
  },
  'nodelist target=1.0': {
    reason:
      "oslo leaves a backported child's changes unfiltered, so a Node 1.14 lists 'meta', a field 1.14 lacks; Baton filters them to the child's data",
    adjust: (expected) => {
      for (const child of expected['ironic_object.data'].objects) {
        const data = Object.keys(child['ironic_object.data']);
        const changes = (child['ironic_object.changes'] ?? []).filter((c: string) =>
          data.includes(c),
        );
        if (changes.length > 0) child['ironic_object.changes'] = changes;
        else delete child['ironic_object.changes'];
      }
      return expected;
    },
  },
};

const ERRORS: Record<string, unknown> = { InvalidTargetVersion: InvalidTargetVersionError };

describe('ovo vectors: objects', () => {
  for (const vector of vectors.objects as Json[]) {
    describe(vector.id, () => {
      const obj = objectFromState(vector.state);

      test('state round-trips', () => {
        assert.deepEqual(stateOf(obj), normalizeState(vector.state));
      });

      if (vector.construct) {
        test('construction marks every given field changed', () => {
          const built = Node.create(decode(vector.construct) as never);
          assert.deepEqual(stateOf(built), normalizeState(vector.state));
        });
      }

      for (const [target, result] of Object.entries(
        vector.obj_to_primitive as Record<string, Json>,
      )) {
        test(`primitive ${target}`, () => {
          const version = target === 'latest' ? undefined : target.slice('target='.length);
          const deviation = DEVIATIONS[`${vector.id} ${target}`];
          if (deviation?.error !== undefined || result.error !== undefined) {
            const expected = deviation?.error ?? ERRORS[result.error];
            assert.ok(expected, `no error class for ${result.error}`);
            assert.throws(() => toPrimitive(obj, version), expected as never);
            return;
          }
          const wanted = structuredClone(result.value);
          const expected = sortChanges(deviation?.adjust ? deviation.adjust(wanted) : wanted);
          assert.deepEqual(
            sortChanges(JSON.parse(JSON.stringify(toPrimitive(obj, version)))),
            expected,
          );
        });
      }
    });
  }
});
