/**
 * Placement's version gates: one table (api/features.ts) beside the version list, no version
 * written anywhere else in the handlers and schemas, and every version-windowed choice a
 * contiguous cover from its first gate to the newest version (upstream Placement's
 * TestMicroversionIntersection, without its hand-kept count).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  compareVersions,
  type FeatureWindow,
  FeatureWindows,
  parseVersion,
  ungatedVersions,
} from '../../../src/microversion/index.ts';
import { FEATURES } from '../../../src/placement/api/features.ts';
import { PLACEMENT_VERSIONS } from '../../../src/placement/api/versions.ts';
import { versionsWritten as writtenVersions } from '../../support/version-literals.ts';

const ROOT = new URL('../../../', import.meta.url);
const SCANNED = ['src/placement/api', 'src/placement/schemas'];
/** The only files allowed to write versions: the list and the table. */
const EXEMPT = new Set(['src/placement/api/versions.ts', 'src/placement/api/features.ts']);

function sourceFiles(): string[] {
  return SCANNED.flatMap((dir) =>
    readdirSync(new URL(dir, ROOT))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${dir}/${name}`),
  ).sort();
}

/** `file:line: what (text); name it in api/features.ts` for every version written in code. */
function versionsWritten(file: string, text: string): string[] {
  return writtenVersions(file, text, 'name it in api/features.ts');
}

describe('Placement features table', () => {
  test('every version after 1.0 has a gate, and the base is 1.0', () => {
    assert.deepEqual(ungatedVersions(PLACEMENT_VERSIONS, FEATURES), []);
    assert.equal(FEATURES.base.text, PLACEMENT_VERSIONS[0]);
    assert.equal(FEATURES.consumerGenerations.text, '1.28');
    assert.equal(FEATURES.consumerTypes.text, '1.38');
  });

  test('the scan finds what it must (a handler declaring its own gate)', () => {
    const handler = [
      "const V1_34 = parseVersion('1.34');",
      'if (version.atLeast(V1_34)) mappings();',
      'declareRoute(app, "/reshaper", { POST: since(`1.30`, reshape) });',
      "// PUT_ALLOCATIONS_V1_34 names a schema; prose may say '1.34' or V1_34",
      "/** so may `1.28` in a doc comment */ const slashes = '//'; const gate = '1.28';",
    ].join('\n');
    assert.deepEqual(versionsWritten('handler.ts', handler), [
      "handler.ts:1: a version literal ('1.34'); name it in api/features.ts",
      'handler.ts:1: a version constant (V1_34); name it in api/features.ts',
      'handler.ts:1: a version built in place (parseVersion(); name it in api/features.ts',
      'handler.ts:2: a version constant (V1_34); name it in api/features.ts',
      'handler.ts:3: a version literal (`1.30`); name it in api/features.ts',
      "handler.ts:5: a version literal ('1.28'); name it in api/features.ts",
    ]);
  });

  test('no handler or schema file writes a version outside the table and the list', () => {
    const files = sourceFiles();
    assert.ok(files.length > 20, `scanned ${files.length} files`);
    const found = files
      .filter((file) => !EXEMPT.has(file))
      .flatMap((file) => versionsWritten(file, readFileSync(new URL(file, ROOT), 'utf8')));
    assert.deepEqual(found, []);
  });
});

/** Problems of a set of windows over Placement's versions, found by walking every version. */
function coverProblems(windows: readonly FeatureWindow<unknown>[]): string[] {
  const problems: string[] = [];
  const first = windows[0];
  if (first === undefined) return ['no window'];
  for (const text of PLACEMENT_VERSIONS) {
    const version = parseVersion(text);
    const serving = windows.filter(
      (w) =>
        compareVersions(version, w.since) >= 0 &&
        (w.until === undefined || compareVersions(version, w.until) < 0),
    );
    const due = compareVersions(version, first.since) >= 0;
    if (serving.length > 1) problems.push(`${text}: overlap of ${serving.length} windows`);
    if (serving.length === 0 && due) problems.push(`${text}: gap`);
    if (serving.length > 0 && !due) problems.push(`${text}: served before the first gate`);
  }
  return problems;
}

describe('Placement version windows', async () => {
  const files = sourceFiles();
  const sets: [string, FeatureWindows<unknown>][] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(join(ROOT.pathname, file)).href)) as Record<
      string,
      unknown
    >;
    for (const [name, value] of Object.entries(module)) {
      if (value instanceof FeatureWindows) sets.push([`${file} ${name}`, value]);
    }
  }

  test('the walk finds gaps and overlaps (windows that bypassed the constructor)', () => {
    const gapped = [
      { since: FEATURES.base, until: FEATURES.allocationOwners, use: 'a' },
      { since: FEATURES.allocationsAsDict, use: 'b' },
    ];
    assert.deepEqual(coverProblems(gapped), ['1.8: gap', '1.9: gap', '1.10: gap', '1.11: gap']);
    const overlapping = [
      { since: FEATURES.base, until: FEATURES.allocationOwners, use: 'a' },
      { since: FEATURES.deleteAllInventories, use: 'b' },
    ];
    assert.deepEqual(coverProblems(overlapping), [
      '1.5: overlap of 2 windows',
      '1.6: overlap of 2 windows',
      '1.7: overlap of 2 windows',
    ]);
  });

  test('every windowed set is exported, so this test sees it', () => {
    const declared = files
      .map((file) => readFileSync(new URL(file, ROOT), 'utf8').match(/new FeatureWindows\b/g))
      .reduce((count, matches) => count + (matches?.length ?? 0), 0);
    assert.equal(sets.length, declared, sets.map(([name]) => name).join('\n'));
    assert.ok(sets.length >= 9, `found ${sets.length} windowed sets`);
  });

  test('every windowed set covers its first gate up to the newest version, no gap, no overlap', () => {
    const max = parseVersion(PLACEMENT_VERSIONS[PLACEMENT_VERSIONS.length - 1] as string);
    for (const [name, set] of sets) {
      assert.deepEqual(coverProblems(set.windows), [], name);
      assert.equal(set.until, undefined, `${name} stops before ${max.major}.${max.minor}`);
      for (const window of set.windows) {
        assert.equal(set.select(window.since), window.use, `${name} at ${window.since}`);
      }
    }
  });
});
