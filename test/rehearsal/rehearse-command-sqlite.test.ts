/**
 * The rehearsal CI runs: `baton rehearse --step-seconds 5` exactly as docs/rehearsal.md gives
 * it (the previous recorded release to this tree, SQLite, http RPC, behind HAProxy, 60
 * requests/s aimed). It must exit 0, which it does only with zero failed requests and a clean
 * data check; the step table is printed into the test log, the whole report kept as JSON.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RehearsalReport } from '../../src/rehearsal/report.ts';
import { runRehearse } from './support/run-rehearse.ts';
import { assertNewReleaseUsed } from './support/server-rehearsal.ts';

interface Report {
  readonly ok: boolean;
  readonly total: { readonly requests: number; readonly failed: number };
  readonly steps: readonly {
    readonly id: string;
    readonly figures: { readonly requests: number };
  }[];
  readonly dataCheck: { readonly problems: readonly string[]; readonly nodesExpected: number };
}

describe('baton rehearse on the embedded defaults', () => {
  it('upgrades the previous release under load with nothing failed and the data clean', async (t) => {
    const json = join(mkdtempSync(join(tmpdir(), 'baton-rehearse-ci-')), 'report.json');
    const stdout = await runRehearse(['--step-seconds', '5', '--json', json]);
    t.diagnostic(stdout);
    t.diagnostic(`report: ${json}`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    assert.equal(report.ok, true);
    assert.equal(report.total.failed, 0);
    assert.deepEqual(report.dataCheck.problems, []);
    assert.ok(report.dataCheck.nodesExpected > 0);
    assert.deepEqual(
      report.steps.map((s) => s.id),
      ['0', '1.1', '1.2', '2.1', '2.2', '3.1', '3.2', '3.3', '3.4', 'done'],
    );
    assert.ok(report.steps.every((step) => step.figures.requests > 0));
    assertNewReleaseUsed(report as unknown as RehearsalReport);
  });
});
