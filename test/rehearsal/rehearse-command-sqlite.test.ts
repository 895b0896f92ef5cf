/**
 * The rehearsal CI runs: `baton rehearse --step-seconds 5 --find-capacity` exactly as
 * docs/rehearsal.md gives it (the previous recorded release to this tree, SQLite, http RPC,
 * behind HAProxy, 60 requests/s aimed, and the cluster's capacity before and after). It must exit 0, which it does only with zero failed requests and a clean
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
    readonly cpu?: Readonly<Record<string, number>>;
    readonly slowest?: readonly { readonly ms: number; readonly during: readonly string[] }[];
  }[];
  readonly dataCheck: { readonly problems: readonly string[]; readonly nodesExpected: number };
  readonly targetRate: number;
  readonly capacity?: {
    readonly previous?: { readonly release: string; readonly figures: { perSecond: number } };
    readonly new?: { readonly release: string; readonly figures: { perSecond: number } };
  };
}

describe('baton rehearse on the embedded defaults', () => {
  it('upgrades the previous release under load with nothing failed and the data clean', async (t) => {
    const json = join(mkdtempSync(join(tmpdir(), 'baton-rehearse-ci-')), 'report.json');
    const stdout = await runRehearse(['--step-seconds', '5', '--find-capacity', '--json', json]);
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
    // Where each step's time went: every process's share of a core, and its slowest requests.
    for (const step of report.steps) {
      const cpu = step.cpu ?? {};
      assert.ok((cpu['load generator'] ?? 0) > 0, `step ${step.id}: ${JSON.stringify(cpu)}`);
      assert.ok(
        Object.keys(cpu).some((name) => /-api\d-/.test(name)) &&
          Object.keys(cpu).some((name) => /-cond\d-/.test(name)),
        `step ${step.id} names the APIs and conductors: ${JSON.stringify(cpu)}`,
      );
      assert.equal(step.slowest?.length, 5, `step ${step.id}`);
    }
    // The walk is made of starts, stops and commands: some slow request overlapped one of them.
    assert.ok(
      report.steps.flatMap((step) => step.slowest ?? []).some((slow) => slow.during.length > 0),
      'some slow request overlapped a process starting or stopping or a command',
    );
    // The load unpaced served more than the paced load aims at, on both releases' clusters.
    assert.equal(report.capacity?.previous?.release, 'zed');
    assert.equal(report.capacity?.new?.release, 'new');
    for (const measure of [report.capacity?.previous, report.capacity?.new]) {
      assert.ok((measure?.figures.perSecond ?? 0) > report.targetRate, JSON.stringify(measure));
    }
    assert.match(stdout, /^Capacity \(the load unpaced for 5 s, 16 workers\): zed \d/m);
    assertNewReleaseUsed(report as unknown as RehearsalReport);
  });
});
