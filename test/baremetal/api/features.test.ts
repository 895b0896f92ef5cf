/**
 * The bare metal API's version gates: one table (api/features.ts, through the toolkit's
 * defineFeatures) beside the version list, every version after 1.1 gated, and no version
 * written anywhere else in the API's code (handlers ask `request.microversion.atLeast(
 * FEATURES.x)` or hand views a GateCheck).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  BAREMETAL_FEATURE_VERSIONS,
  FEATURES,
  gatesAt,
} from '../../../src/baremetal/api/features.ts';
import { BAREMETAL_VERSIONS, SERVED_MAX_VERSION } from '../../../src/baremetal/api/versions.ts';
import { FeatureGate, ungatedVersions } from '../../../src/microversion/index.ts';
import { versionsWritten } from '../../support/version-literals.ts';

const ROOT = new URL('../../../', import.meta.url);
/** Every folder whose code decides by version: the API, and the driver views it hands gates. */
const SCANNED = ['src/baremetal/api', 'src/baremetal/drivers'];
const EXEMPT = new Set(['src/baremetal/api/versions.ts', 'src/baremetal/api/features.ts']);

function sourceFiles(): string[] {
  return SCANNED.flatMap((dir) =>
    readdirSync(new URL(dir, ROOT))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${dir}/${name}`),
  ).sort();
}

describe('bare metal features table', () => {
  test('is a defineFeatures table naming every version after 1.1', () => {
    assert.deepEqual(ungatedVersions(BAREMETAL_VERSIONS, FEATURES), []);
    for (const [name, text] of Object.entries(BAREMETAL_FEATURE_VERSIONS)) {
      const gate = FEATURES[name as keyof typeof FEATURES];
      assert.ok(gate instanceof FeatureGate, name);
      assert.equal(gate.text, text);
    }
    assert.equal(FEATURES.nodeOwner.text, '1.50');
    assert.equal(FEATURES.conductors.text, '1.49');
  });

  test('answers a version with a GateCheck', () => {
    const at = (minor: number) => gatesAt({ atLeast: (v) => minor >= v.minor });
    assert.equal(at(49)('conductors'), true);
    assert.equal(at(48)('conductors'), false);
    assert.equal(at(80)('nodeShard'), false, `${SERVED_MAX_VERSION} does not serve shards`);
  });

  test('the scan finds what it must', () => {
    const handler = [
      "if (request.microversion.atLeast(parseVersion('1.49'))) conductor();",
      "const V1_50 = '1.50'; // '1.51' in prose is fine",
    ].join('\n');
    assert.deepEqual(versionsWritten('h.ts', handler, 'x'), [
      "h.ts:1: a version literal ('1.49'); x",
      'h.ts:1: a version built in place (parseVersion(); x',
      "h.ts:2: a version literal ('1.50'); x",
      'h.ts:2: a version constant (V1_50); x',
    ]);
  });

  test('no file of the API writes a version outside the table and the list', () => {
    const files = sourceFiles();
    assert.ok(files.length > 30, `scanned ${files.length} files`);
    const found = files
      .filter((file) => !EXEMPT.has(file))
      .flatMap((file) =>
        versionsWritten(
          file,
          readFileSync(new URL(file, ROOT), 'utf8'),
          'name it in src/baremetal/api/features.ts',
        ),
      );
    assert.deepEqual(found, []);
  });
});
