/**
 * A short rehearsal (1 s per step, 30 requests/s) from the recorded previous release on a
 * database server, as one test: every step of the rolling-upgrade doc's table under load, zero failed
 * requests, a clean data check. Each backend has its own test file so that they run side by
 * side. An unreachable server or broker skips, except under CI=true, where it fails.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import type { Backend } from '../../../src/db/index.ts';
import { rehearse } from '../../../src/rehearsal/rehearsal.ts';
import { type RehearsalReport, renderReport } from '../../../src/rehearsal/report.ts';
import { backendAvailable, createScratchDatabase } from '../../db/support/backends.ts';
import { AMQP_URL, brokerAvailable } from '../../rpc/support/transports.ts';

const ROOT = join(import.meta.dirname, '../../..');

/** What only the new release serves, used from step 3.3 on and compared by the data check. */
export const NEW_RELEASE_KINDS = ['shard-set', 'show-new', 'inventory'] as const;

export function itRehearsesOn(backend: Exclude<Backend, 'sqlite'>, rpc: 'http' | 'amqp'): void {
  it(`${backend} with ${rpc} RPC: every step under load, nothing failed, data clean`, async (t) => {
    const unavailable =
      (await backendAvailable(backend)) ?? (rpc === 'amqp' ? await brokerAvailable() : undefined);
    // Outside CI only: under CI=true both checks throw when a server is unreachable.
    if (unavailable !== undefined) {
      t.skip(unavailable);
      return;
    }
    const scratch = await createScratchDatabase(backend);
    const lines: string[] = [];
    try {
      const report = await rehearse({
        repoRoot: ROOT,
        databaseUrl: scratch.url,
        rpc,
        amqpUrl: AMQP_URL,
        stepSeconds: 1,
        rate: 30,
        workers: 4,
        microversion: '1.80',
        say: (line) => lines.push(line),
      });
      const text = renderReport(report);
      t.diagnostic(text);
      assert.equal(report.total.failed, 0, text);
      assert.deepEqual(report.dataCheck.problems, [], text);
      assert.ok(report.ok, text);
      assert.deepEqual(
        report.steps.map((s) => s.id),
        ['0', '1.1', '1.2', '2.1', '2.2', '3.1', '3.2', '3.3', '3.4', 'done'],
      );
      // Pinned processes report the previous release's caps; unpinned ones their own.
      const pinned = report.steps[4]?.processes.find((p) => p.build === 'pinned');
      assert.equal(pinned?.caps?.release, report.previous.name);
      assert.ok(report.steps.every((step) => step.figures.requests > 0));
      assert.match(report.dataCheck.summary, /^[1-9]\d* nodes /);
      assertNewReleaseUsed(report);
    } finally {
      await scratch.drop();
    }
  });
}

/**
 * The load used what only the new release serves (a shard set at 1.82, the node and its
 * inventory read back), only once an API served it (step 3.4 on: until then a pinned API is in
 * the pool, and the pool serves its maximum), and the data check compared those fields.
 */
export function assertNewReleaseUsed(report: RehearsalReport): void {
  for (const kind of NEW_RELEASE_KINDS) {
    assert.ok((report.total.byKind as Record<string, number>)[kind], `${kind} sent`);
    const early = report.steps
      .filter((step) => !['3.4', 'done'].includes(step.id))
      .reduce((sum, step) => sum + ((step.figures.byKind as Record<string, number>)[kind] ?? 0), 0);
    assert.equal(early, 0, `${kind} sent before an API served the new release`);
  }
  assert.ok(report.dataCheck.compared['shard @1.82'], JSON.stringify(report.dataCheck.compared));
  assert.ok(
    report.dataCheck.compared['inventory @1.80'],
    JSON.stringify(report.dataCheck.compared),
  );
}

/** A rehearsal forward to `backFrom`, then back to step 0, on SQLite (rehearse-back-sqlite). */
export function itGoesBackFrom(backFrom: string): void {
  it(`forward to ${backFrom} and back under load: nothing failed, data clean, the plan at 0`, async (t) => {
    const scratch = await createScratchDatabase('sqlite');
    try {
      const report = await rehearse({
        repoRoot: ROOT,
        databaseUrl: scratch.url,
        rpc: 'http',
        amqpUrl: AMQP_URL,
        backFrom,
        stepSeconds: 2,
        rate: 30,
        workers: 4,
        microversion: '1.80',
        say: () => {},
      });
      const text = renderReport(report);
      t.diagnostic(text);
      assert.equal(report.total.failed, 0, text);
      assert.deepEqual(report.dataCheck.problems, [], text);
      assert.ok(report.ok, text);
      const ids = report.steps.map((s) => s.id);
      assert.equal(ids.at(-2), 'back to 0');
      assert.equal(ids.at(-1), 'back');
      // Back at 0: every process runs the previous release again, and the plan says step 0.
      const last = report.steps.at(-1);
      assert.ok(
        last?.processes.every((p) => p.build === 'previous'),
        text,
      );
      assert.deepEqual(
        last?.commands.map((c) => [
          c.command.replace(/.*baton\.mjs /, '').split(' --')[0],
          c.status,
        ]),
        [['upgrade plan', 0]],
      );
      assert.ok(report.steps.every((step) => step.figures.requests > 0));
    } finally {
      await scratch.drop();
    }
  });
}
