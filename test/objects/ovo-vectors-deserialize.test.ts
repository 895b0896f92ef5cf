/**
 * oslo.versionedobjects vectors, `deserialize` section: primitives produced
 * by Python services are read back (`ObjectRegistry.fromPrimitive`) and
 * received (`ObjectSerializer.deserializeEntity`, which converts to the
 * latest version) with the same values, versions and changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  FieldValueError,
  IncompatibleObjectVersionError,
  MalformedPrimitiveError,
  ObjectSerializer,
  UnsupportedObjectError,
} from '../../src/objects/index.ts';
import { newRegistry, oldRegistry } from './support/ironic-family.ts';
import { encode, type Json, normalizeExpected, vectors } from './support/vectors.ts';

const ERRORS: Record<string, unknown> = {
  IncompatibleObjectVersion: IncompatibleObjectVersionError,
  UnsupportedObjectError,
  KeyError: MalformedPrimitiveError,
  ValueError: FieldValueError,
};

/** Cases where Baton deliberately reads differently, and why. */
const DEVIATIONS: Record<string, { error: unknown; reason: string }> = {
  'node_1.15_coercion': {
    error: FieldValueError,
    reason:
      'oslo reads maintenance "false" as true (Python truthiness) and truncates chassis_id 3.9 to 3; Baton refuses both rather than change their meaning',
  },
  flexdict_null_and_string: {
    error: FieldValueError,
    reason:
      "oslo evaluates the string \"{'from': 'literal_eval'}\" as a Python literal; Baton accepts only JSON text in a FlexibleDict",
  },
};

function check(outcome: Json, run: () => unknown, deviation?: { error: unknown }): void {
  if (deviation !== undefined) {
    assert.throws(run, deviation.error as never);
    return;
  }
  if (outcome.error !== undefined) {
    const expected = ERRORS[outcome.error];
    assert.ok(expected, `no error class for ${outcome.error}`);
    assert.throws(run, expected as never);
    return;
  }
  assert.deepEqual(encode(run()), normalizeExpected(outcome.value));
}

describe('ovo vectors: deserialize', () => {
  for (const vector of vectors.deserialize as Json[]) {
    describe(vector.id, () => {
      const registry = vector.registry === 'old' ? oldRegistry() : newRegistry();
      const deviation = DEVIATIONS[vector.id];
      if (vector.obj_from_primitive) {
        test('fromPrimitive', () => {
          check(
            vector.obj_from_primitive,
            () => registry.fromPrimitive(structuredClone(vector.input)),
            deviation,
          );
        });
      }
      test('serializer (receive, convert to latest, keep changes)', () => {
        const serializer = new ObjectSerializer(registry);
        check(
          vector.serializer_server,
          () => serializer.deserializeEntity(structuredClone(vector.input)),
          deviation,
        );
      });
      if (vector.serializer_api?.value !== undefined && deviation === undefined) {
        test('the API-side serializer of oslo drops changes after converting; Baton keeps them (the rolling-upgrade doc)', () => {
          const ours = encode(
            new ObjectSerializer(registry).deserializeEntity(structuredClone(vector.input)),
          );
          const api = normalizeExpected(vector.serializer_api.value);
          // Same values and versions as oslo's API side; only the changes may differ.
          const strip = (state: Json): Json =>
            JSON.parse(JSON.stringify(state).replace(/"changed":\[[^\]]*\]/g, '"changed":[]'));
          assert.deepEqual(strip(ours), strip(api));
        });
      }
    });
  }
});
