/**
 * Baton's bare metal API held to the real Ironic 21.4.4 (Debian's ironic-api and
 * ironic-conductor, started once for this file by test/support/real-ironic.ts): the same
 * sequences of requests go to both, and every answer must have the same status, version
 * headers, Allow and Location, and body, once UUIDs (named by order of appearance),
 * timestamps and addresses are set aside. Scenarios are in ./scenarios/.
 *
 * Without the real service installed the comparison is skipped with the reason; under
 * CI=true it fails.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { BAREMETAL_RELEASES } from '../../../src/baremetal/releases.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { type BatonApi, pinnedCaps, startBatonApi } from './support/baton-api.ts';
import { differences, Normalizer, send, settle, type Target } from './support/compare.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

const BATON_BASE = 'http://127.0.0.1:6385';

/** The answer without the body keys Baton leaves out on purpose. */
function without<A extends { body: unknown }>(answer: A, keys: readonly string[] = []): A {
  if (keys.length === 0 || answer.body === null || typeof answer.body !== 'object') return answer;
  const body = { ...(answer.body as Record<string, unknown>) };
  for (const key of keys) delete body[key];
  return { ...answer, body };
}

describe('the bare metal API against the real Ironic', { skip: missing }, () => {
  let real: RealIronic;
  let baton: BatonApi;

  before(async () => {
    // Both pinned to zed (API 1.1 to 1.80, zed's RPC and object versions): the rolling
    // upgrade's steps 1 to 3.1, compared with the real service in the same state.
    [real, baton] = await Promise.all([
      startRealIronic({ pinReleaseVersion: 'zed' }),
      // Baton's conductor is host 127.0.0.1, as the real one is.
      startBatonApi({ caps: pinnedCaps('zed') }),
    ]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of SCENARIOS) {
    it(scenario.title, async () => {
      const targets: Record<'real' | 'baton', Target> = {
        real: { kind: 'real', base: real.url },
        baton: { kind: 'baton', api: baton, base: BATON_BASE },
      };
      const normalizers = {
        real: new Normalizer(real.url),
        baton: new Normalizer(BATON_BASE),
      };
      for (const [index, exchange] of scenario.steps.entries()) {
        const realAnswer = await send(targets.real, normalizers.real.resolve(exchange));
        const batonAnswer = await send(targets.baton, normalizers.baton.resolve(exchange));
        const ours = without(normalizers.baton.answer(batonAnswer), exchange.unlike);
        const theirs = without(normalizers.real.answer(realAnswer), exchange.unlike);
        if (exchange.settle !== undefined) {
          await settle(targets.real, normalizers.real.resolve({ path: exchange.settle }).path);
          await settle(targets.baton, normalizers.baton.resolve({ path: exchange.settle }).path);
        }
        if (exchange.realBug !== undefined) {
          assert.equal(theirs.status, 500, `the real service no longer fails: ${exchange.realBug}`);
          assert.ok(
            ours.status < 500,
            `Baton answered ${ours.status}: ${JSON.stringify(ours.body)}`,
          );
          continue;
        }
        const found =
          ours.status === theirs.status
            ? differences(ours, theirs)
            : [
                `status: Baton ${ours.status}, real ${theirs.status}`,
                `real body: ${JSON.stringify(theirs.body).slice(0, 400)}`,
                `Baton body: ${JSON.stringify(ours.body).slice(0, 400)}`,
              ];
        if (found.length > 0) {
          const request = `step ${index + 1}: ${exchange.method ?? 'GET'} ${exchange.path} at ${exchange.version ?? '(none)'}`;
          assert.fail(`${request}:\n  ${found.join('\n  ')}`);
        }
      }
    });
  }

  it("wrote every row at zed's object versions, as the real pinned service did", async () => {
    const tables = ['nodes', 'ports', 'portgroups', 'chassis', 'conductors'] as const;
    const file = new Sqlite(join(real.dir, 'ironic.sqlite'), { readonly: true });
    try {
      for (const table of tables) {
        const theirs = (
          file.prepare(`select distinct version from ${table} order by version`).all() as {
            version: string;
          }[]
        ).map((row) => row.version);
        const ours = (
          await baton.db.kysely.selectFrom(table).select('version').distinct().execute()
        ).map((row) => row.version);
        assert.ok(theirs.length > 0, `the scenarios wrote ${table}`);
        assert.deepEqual(ours.sort(), theirs, table);
        const zed = BAREMETAL_RELEASES.zed?.objects ?? {};
        const type = {
          nodes: 'Node',
          ports: 'Port',
          portgroups: 'Portgroup',
          chassis: 'Chassis',
          conductors: 'Conductor',
        }[table];
        assert.deepEqual(theirs, zed[type], `${table} at zed's ${type}`);
      }
    } finally {
      file.close();
    }
  });
});
