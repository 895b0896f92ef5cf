/**
 * Baton's Placement against the real Placement 8.0.0, in `npm test`: conformance/run.ts runs
 * every scenario against both services side by side, each on a fresh PostgreSQL database, and
 * the only differences allowed are a list's order and the deliberate deviations
 * conformance/known-differences.ts names, each with its reason. About 2,000 requests; 2.5
 * minutes on an idle 2-core machine. `npm run conformance` runs the same by hand and prints
 * every difference.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { realPlacementMissing } from '../../bench/support/real-placement.ts';
import {
  type ConformanceSummary,
  KNOWN_DIFFERENCES,
  orderOnly,
  unexplained,
} from '../../conformance/known-differences.ts';
import { SCENARIOS } from '../../conformance/scenarios/index.ts';
import { skipOutsideCi } from '../support/skip-outside-ci.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs conformance/run.ts; resolves with its exit status and output. */
function runConformance(env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/run.ts'], {
      cwd: root,
      env: { ...outer, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    // The servers' logs go to stderr; only the last of it is kept, for a failure message.
    let err = '';
    child.stderr.on('data', (chunk) => {
      err = (err + chunk).slice(-20_000);
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out: `${out}\n${err}` }));
  });
}

describe('the known differences with the real Placement', () => {
  const summary = (where: string[], title = 'some step'): ConformanceSummary => ({
    scenarios: [
      { name: 'a-envelope', requests: 3, differing: [{ title, request: 'GET /', where }] },
    ],
  });

  it('allow a list in another order and a named step, nothing else', () => {
    assert.deepEqual(unexplained(summary(['body.traits (order only)'])), []);
    assert.deepEqual(unexplained(summary(['status'], 'unknown /traits/CUSTOM_%00')), []);
    assert.deepEqual(unexplained(summary(['status', 'body.x (order only)'])), [
      'a-envelope › some step (GET /): status, body.x (order only)',
    ]);
    assert.equal(orderOnly([]), false);
  });

  it('each name a scenario that exists and give a reason', () => {
    const names = new Set(SCENARIOS.map((s) => s.name));
    for (const known of KNOWN_DIFFERENCES) {
      assert.ok(names.has(known.scenario), known.scenario);
      assert.ok(known.reason.length > 20, `${known.scenario} › ${known.step}: a reason`);
    }
  });
});

describe('Baton against the real Placement 8.0.0 (every conformance scenario)', {
  skip: skipOutsideCi(realPlacementMissing()),
}, () => {
  it('answers as the real service does, but for the known differences', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-conformance-'));
    try {
      const file = join(dir, 'summary.json');
      const run = await runConformance({ CONFORMANCE_SUMMARY: file });
      // 0: no difference at all; 1: some (judged below); 2: the servers could not start.
      assert.ok(
        run.status === 0 || run.status === 1,
        `conformance/run.ts exited ${run.status}:\n${run.out}`,
      );
      const summary = JSON.parse(readFileSync(file, 'utf8')) as ConformanceSummary;
      assert.deepEqual(
        summary.scenarios.map((s) => s.name),
        SCENARIOS.map((s) => s.name),
        'every scenario ran',
      );
      for (const scenario of summary.scenarios) assert.ok(scenario.requests > 0, scenario.name);
      const steps = summary.scenarios.flatMap((s) => s.differing.map((d) => ({ s, d })));
      const known = steps.filter(({ s, d }) =>
        KNOWN_DIFFERENCES.some((k) => k.scenario === s.name && k.step === d.title),
      );
      t.diagnostic(
        `${summary.scenarios.reduce((n, s) => n + s.requests, 0)} requests in ${summary.scenarios.length} scenarios: ` +
          `${steps.filter(({ d }) => orderOnly(d.where)).length} differ only in a list's order, ` +
          `${known.length} are known differences (${KNOWN_DIFFERENCES.length} listed)`,
      );
      assert.deepEqual(unexplained(summary), [], 'differences no entry explains');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
