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
import { renderReport } from '../../../src/rehearsal/report.ts';
import { backendAvailable, createScratchDatabase } from '../../db/support/backends.ts';
import { AMQP_URL, brokerAvailable } from '../../rpc/support/transports.ts';

const ROOT = join(import.meta.dirname, '../../..');

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
      assert.ok(report.dataCheck.nodesExpected > 0);
    } finally {
      await scratch.drop();
    }
  });
}
