/**
 * The rehearsal of the example leases service CI runs: `baton rehearse --service leases` from
 * its recorded first release (releases/leases-1.json) to the working tree's second, on SQLite
 * with http RPC behind HAProxy, 3 seconds a step. It must exit 0: zero failed requests, a
 * clean data check, the held-back migration applied after the online migrations, and the
 * new release's microversion used.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { RehearsalReport } from '../../src/rehearsal/report.ts';
import { runRehearse } from './support/run-rehearse.ts';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('baton rehearse --service leases', () => {
  // The example's processes import the built package (`baton/*` is dist/): build it first
  // when the sources changed since (a no-op otherwise).
  before(async () => {
    await run(process.execPath, [join(ROOT, 'bin/build.mjs')], { cwd: ROOT });
  });

  it('upgrades release 1 to release 2 under load with nothing failed and the data clean', async (t) => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-rehearse-leases-'));
    const json = join(folder, 'report.json');
    const html = join(folder, 'report.html');
    const stdout = await runRehearse([
      '--service',
      'leases',
      '--step-seconds',
      '3',
      '--json',
      json,
      '--html',
      html,
    ]);
    t.diagnostic(stdout);
    const report = JSON.parse(readFileSync(json, 'utf8')) as RehearsalReport;
    assert.equal(report.ok, true);
    assert.equal(report.service, 'leases');
    assert.equal(report.previous.name, '1');
    assert.equal(report.total.failed, 0);
    assert.deepEqual(report.dataCheck.problems, []);
    assert.ok(report.steps.every((step) => step.figures.requests > 0));
    // Step 0 applies the expand migration and holds the index back; the last step applies it
    // after the online migrations, and every row is then at Lease 1.1.
    const [first] = report.steps;
    assert.match(first?.commands[0]?.output ?? '', /applied 0002_add_lease_pool/);
    assert.match(first?.commands[0]?.output ?? '', /held back: .*fill_lease_pool/);
    const done = report.steps.at(-1);
    assert.deepEqual(
      done?.commands.map((command) => command.command.split(' ').at(4)),
      ['online-migrations', 'db-upgrade', 'upgrade-check'],
    );
    assert.match(done?.commands[1]?.output ?? '', /applied 0003_index_leases_by_pool/);
    assert.deepEqual(Object.keys(done?.versions.Lease ?? {}), ['1.1']);
    // What only release 2 serves was asked, and answered.
    for (const kind of ['create-in-pool', 'move', 'show-pool']) {
      assert.ok((report.total.byKind[kind] ?? 0) > 0, `no ${kind} request`);
    }
    assert.ok((report.dataCheck.compared['pool @1.1'] ?? 0) > 0);
    // The page holds the load second by second over the whole walk (its drawing is tested
    // in chromium by html-report.test.ts).
    const seconds = (report.steps.at(-1)?.to ?? 0) - (report.steps[0]?.from ?? 0);
    assert.equal(report.timeline?.length, Math.ceil(seconds / 1000));
    const page = readFileSync(html, 'utf8');
    assert.match(page, /Rehearsal <span class="verdict">passed<\/span>/);
    assert.ok(page.includes(`"requests":${report.timeline?.[5]?.requests},`));
  });
});
