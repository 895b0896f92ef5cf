import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkFailure,
  checkSuccess,
  checkWarning,
  releasePinCheck,
  renderUpgradeCheckTable,
  runUpgradeChecks,
  type UpgradeCheck,
  wrapText,
} from '../../../src/db/upgrade-check/index.ts';

const check = (name: string, run: UpgradeCheck['run']): UpgradeCheck => ({ name, run });

test('the exit status is the worst code: 0 success, 1 warning, 2 failure', async () => {
  const ok = check('ok', () => checkSuccess());
  const meh = check('meh', async () => checkWarning('look'));
  const bad = check('bad', () => checkFailure('stop'));
  assert.deepEqual(await runUpgradeChecks([]), { rows: [], code: 'success', exitStatus: 0 });
  assert.equal((await runUpgradeChecks([ok])).exitStatus, 0);
  assert.equal((await runUpgradeChecks([ok, meh])).exitStatus, 1);
  const all = await runUpgradeChecks([bad, meh, ok]);
  assert.deepEqual([all.code, all.exitStatus], ['failure', 2]);
  assert.deepEqual(
    all.rows.map((r) => [r.name, r.code]),
    [
      ['bad', 'failure'],
      ['meh', 'warning'],
      ['ok', 'success'],
    ],
  );
});

test('a check that throws is a failure with the error message; the others still run', async () => {
  const report = await runUpgradeChecks([
    check('explodes', () => {
      throw new Error('cannot open database sqlite:/x: cannot open the file');
    }),
    check('fine', () => checkSuccess()),
  ]);
  assert.equal(report.exitStatus, 2);
  assert.deepEqual(report.rows, [
    {
      name: 'explodes',
      code: 'failure',
      details: 'The check could not run: cannot open database sqlite:/x: cannot open the file',
    },
    { name: 'fine', code: 'success' },
  ]);
});

test('the result table has the oslo.upgradecheck look', () => {
  const text = renderUpgradeCheckTable([
    { name: 'Release pin', code: 'success' },
    {
      name: 'Online data migrations',
      code: 'warning',
      details:
        'Online data migrations have rows to migrate (backfill_colour: 4 row(s)). Run "baton db online-migrations --service widgets" until it exits with 0 before the next upgrade.',
    },
    { name: 'Object versions', code: 'failure', details: 'x'.repeat(130) },
  ]);
  assert.equal(
    text,
    [
      '+-----------------------------------------------------------------------+',
      '| Upgrade Check Results                                                 |',
      '+-----------------------------------------------------------------------+',
      '| Check: Release pin                                                    |',
      '| Result: Success                                                       |',
      '| Details: None                                                         |',
      '+-----------------------------------------------------------------------+',
      '| Check: Online data migrations                                         |',
      '| Result: Warning                                                       |',
      '| Details: Online data migrations have rows to migrate                  |',
      '|   (backfill_colour: 4 row(s)). Run "baton db                          |',
      '|   online-migrations --service widgets" until it exits with 0          |',
      '|   before the next upgrade.                                            |',
      '+-----------------------------------------------------------------------+',
      '| Check: Object versions                                                |',
      '| Result: Failure                                                       |',
      `| Details: ${'x'.repeat(60)} |`,
      `|   ${'x'.repeat(58)}          |`,
      `|   ${'x'.repeat(12)}${' '.repeat(56)}|`,
      '+-----------------------------------------------------------------------+',
    ].join('\n'),
  );
});

test('an empty report is the header alone', () => {
  assert.equal(
    renderUpgradeCheckTable([]),
    ['+-----------------------+', '| Upgrade Check Results |', '+-----------------------+'].join(
      '\n',
    ),
  );
});

test('wrapping keeps lines within 60 columns and the details’ own line breaks', () => {
  const lines = wrapText(`first paragraph\n${'word '.repeat(30)}`);
  assert.equal(lines[0], 'first paragraph');
  assert.ok(lines.slice(1).every((line) => line.startsWith('  ') && line.length <= 60));
  assert.equal(lines.slice(1).join(' ').split(/\s+/).filter(Boolean).length, 30);
});

test('release pin: success unpinned, a warning saying to unpin when pinned', async () => {
  assert.deepEqual(await releasePinCheck({ release: undefined }).run(), { code: 'success' });
  assert.deepEqual(await releasePinCheck({ release: '  ' }).run(), { code: 'success' });
  const pinned = await releasePinCheck({ release: '2025.2' }).run();
  assert.equal(pinned.code, 'warning');
  assert.match(
    pinned.details ?? '',
    /pin_release_version is set to 2025\.2\. Unpin after the upgrade/,
  );
});
