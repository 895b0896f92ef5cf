import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defineFeatures,
  FeatureGate,
  FeatureTableError,
  makeVersion,
  ResolvedVersion,
  ungatedVersions,
  VersionListError,
} from '../../src/microversion/index.ts';

const VERSIONS = ['1.0', '1.1', '1.2', '1.10', '2.0'] as const;

const at = (major: number, minor: number) =>
  new ResolvedVersion(makeVersion(major, minor), `${major}.${minor}`, []);

describe('features tables', () => {
  test('each gate is named, keeps its text and compares as its version', () => {
    const features = defineFeatures(VERSIONS, { aggregates: '1.1', widgets: '1.10' });
    assert.ok(features.widgets instanceof FeatureGate);
    assert.deepEqual(
      [
        features.widgets.name,
        features.widgets.text,
        features.widgets.major,
        features.widgets.minor,
      ],
      ['widgets', '1.10', 1, 10],
    );
    assert.equal(String(features.widgets), 'widgets (1.10)');
    // 1.9 < 1.10: compared as numbers, never as text.
    assert.equal(at(1, 9).atLeast(features.widgets), false);
    assert.equal(at(1, 10).atLeast(features.widgets), true);
    assert.equal(at(2, 0).atLeast(features.widgets), true);
    assert.ok(Object.isFrozen(features));
    assert.ok(Object.isFrozen(features.widgets));
  });

  test('a gate naming a version the API does not list is refused when the table is defined', () => {
    const list: readonly string[] = VERSIONS;
    for (const missing of ['1.3', '1.11', '3.0', 'latest', '01.1']) {
      assert.throws(
        () => defineFeatures(list, { fine: '1.1', broken: missing }),
        (error: unknown) =>
          error instanceof FeatureTableError &&
          error.gate === 'broken' &&
          error.version === missing &&
          error.message.includes('1.0 to 2.0'),
        missing,
      );
    }
  });

  test('with a list declared `as const`, an unlisted version is a type error too', () => {
    assert.throws(
      // @ts-expect-error 1.3 is not one of VERSIONS (typecheck fails if this stops being an error)
      () => defineFeatures(VERSIONS, { missing: '1.3' }),
      FeatureTableError,
    );
  });

  test('the version list itself is checked (ascending, parsable, not empty)', () => {
    assert.throws(() => defineFeatures(['1.0', '1.2', '1.1'], {}), VersionListError);
    assert.throws(() => defineFeatures(['1.0', 'one'], {}), /not|Invalid/);
    assert.throws(() => defineFeatures([], {}), VersionListError);
  });

  test('several gates may name one version; gates know their API', () => {
    const placement = defineFeatures(VERSIONS, { dict: '1.10', owners: '1.10' });
    const other = defineFeatures(['1.1', '1.10'], { dict: '1.10' });
    assert.ok(placement.dict.sameApi(placement.owners));
    assert.equal(placement.dict.sameApi(other.dict), false);
  });

  test('ungatedVersions lists the versions past the first that no gate names', () => {
    const partial = defineFeatures(VERSIONS, { base: '1.0', aggregates: '1.1', widgets: '1.10' });
    assert.deepEqual(ungatedVersions(VERSIONS, partial), ['1.2', '2.0']);
    const full = defineFeatures(VERSIONS, { a: '1.1', b: '1.2', c: '1.10', d: '2.0' });
    assert.deepEqual(ungatedVersions(VERSIONS, full), []);
  });
});
