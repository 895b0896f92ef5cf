/**
 * Every update the API acknowledges is kept, whatever else writes the node at the same time
 * (issue 24 §2), on SQLite, PostgreSQL and MariaDB: PATCHes of different keys of one node's
 * `extra`, all at once; PATCHes among power actions; PATCHes among power, provision and
 * maintenance requests with the conductor's periodic tasks running every second. Each PATCH
 * answered 2xx must have its key in the node afterwards; the requests must have been in flight
 * together (the race happened). Before the fix, the conductor wrote the `extra` each PATCH had
 * computed from its own earlier read, and most keys were lost (bench:baremetal-races shows
 * the real Ironic 21.4.4 losing them the same way).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type RaceClient,
  type RaceReply,
  raceUpdates,
  type UpdateRaceResult,
} from '../../../bench/support/baremetal-races.ts';
import {
  type BatonApi,
  forEachApiBackend,
  startSecondApi,
  unpinnedCaps,
} from './support/baton-api.ts';

const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.80' };

type Inject = BatonApi['request'];

function injectClient(request: () => Inject): RaceClient {
  return {
    async call(method, path, body): Promise<RaceReply> {
      const response = await request()({
        method: method as 'GET',
        url: path,
        headers: HEADERS,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      const text = response.body;
      return { status: response.statusCode, body: text === '' ? undefined : JSON.parse(text) };
    },
  };
}

function report(name: string, result: UpdateRaceResult, stale?: number): void {
  console.log(
    `${name}: ${result.sent} requests, at most ${result.maxInFlight} in flight; PATCHes ${JSON.stringify(result.patchStatuses)}, ` +
      `other actions ${JSON.stringify(result.actionStatuses)}; ` +
      `${stale === undefined ? '' : `updates from a stale read merged or refused: ${stale}; `}` +
      `acknowledged updates lost: ${result.lost.length}`,
  );
}

/** The conductor's lines about updates computed from a stale read (merged or refused). */
const staleReads: string[] = [];
const conductorLog = {
  info: (line: string) => {
    if (/^update of node \S+ (merged|refused)/.test(line)) staleReads.push(line);
  },
  warn: () => {},
  error: () => {},
};

/** Stale reads the conductor met during `body` (each would have been a lost update). */
async function countingStaleReads<T>(body: () => Promise<T>): Promise<[T, number]> {
  const before = staleReads.length;
  const result = await body();
  return [result, staleReads.length - before];
}

forEachApiBackend(
  'concurrent updates of one node',
  (api, backend) => {
    const client = injectClient(() => api().request);
    // SQLite's driver is synchronous: in one process, a request's read and its write are not
    // interleaved with another's (test/faults/concurrent-updates.test.ts races them on SQLite
    // with processes). The servers' drivers interleave them.
    const interleaves = backend !== 'sqlite';

    test('40 PATCHes of different keys of extra at once: every one answered 200 and kept', async () => {
      const result = await raceUpdates(client, { patches: 40 });
      report('40 patches', result);
      assert.ok(result.maxInFlight >= 20, `only ${result.maxInFlight} in flight at once`);
      assert.deepEqual(result.patchStatuses, { 200: 40 });
      assert.deepEqual(result.lost, [], 'acknowledged updates lost');
    });

    test('20 PATCHes among 20 power actions: every PATCH answered 2xx is kept', async () => {
      const result = await raceUpdates(client, { patches: 20, powerActions: 20 });
      report('20 patches + 20 power', result);
      assert.ok(result.maxInFlight >= 20, `only ${result.maxInFlight} in flight at once`);
      assert.ok(result.acknowledged >= 10, `only ${result.acknowledged} PATCHes answered 2xx`);
      assert.deepEqual(result.lost, [], 'acknowledged updates lost');
    });

    test('40 PATCHes through two API processes at once: every one answered 200 and kept', async () => {
      // Each API process takes its own PATCHes of a node in turn; between the two, the
      // conductor's check refuses the stale ones and their API applies them again.
      const second = await startSecondApi(api(), unpinnedCaps());
      try {
        let n = 0;
        const other = injectClient(() => second.request);
        const [result, stale] = await countingStaleReads(() =>
          raceUpdates(
            {
              call: (method, path, body) =>
                (method === 'PATCH' && n++ % 2 === 1 ? other : client).call(method, path, body),
            },
            { patches: 40 },
          ),
        );
        report('40 patches through two APIs', result, stale);
        assert.ok(result.maxInFlight >= 20, `only ${result.maxInFlight} in flight at once`);
        if (interleaves) assert.ok(stale > 0, 'no update was computed from a stale read');
        assert.deepEqual(result.patchStatuses, { 200: 40 });
        assert.deepEqual(result.lost, [], 'acknowledged updates lost');
      } finally {
        await second.close();
      }
    });

    test('20 PATCHes appending to one list through two API processes: every 2xx kept', async () => {
      // The same key for all: the conductor refuses each stale one and its API reads again.
      const second = await startSecondApi(api(), unpinnedCaps());
      try {
        let n = 0;
        const other = injectClient(() => second.request);
        const [result, stale] = await countingStaleReads(() =>
          raceUpdates(
            {
              call: (method, path, body) =>
                (method === 'PATCH' && n++ % 2 === 1 ? other : client).call(method, path, body),
            },
            { patches: 20, append: true },
          ),
        );
        report('20 appends through two APIs', result, stale);
        assert.ok(result.maxInFlight >= 10, `only ${result.maxInFlight} in flight at once`);
        if (interleaves) assert.ok(stale > 0, 'no update was computed from a stale read');
        assert.ok(result.acknowledged >= 10, `only ${result.acknowledged} PATCHes answered 2xx`);
        assert.deepEqual(result.lost, [], 'acknowledged updates lost');
      } finally {
        await second.close();
      }
    });

    test('PATCHes among power, provision and maintenance requests and periodic tasks: every 2xx kept', async () => {
      const maintenance: Promise<unknown>[] = [];
      const result = await raceUpdates(
        {
          call(method, path, body) {
            // Each PATCH goes with a maintenance change of the same node (an update_node too).
            const uuid = /^\/v1\/nodes\/([^/]+)$/.exec(path)?.[1];
            if (method === 'PATCH' && uuid !== undefined) {
              const on = maintenance.length % 2 === 0;
              maintenance.push(
                client.call(
                  on ? 'PUT' : 'DELETE',
                  `/v1/nodes/${uuid}/maintenance`,
                  on ? { reason: `m${maintenance.length}` } : undefined,
                ),
              );
            }
            return client.call(method, path, body);
          },
        },
        { patches: 20, powerActions: 10, provisionActions: 10 },
      );
      const answers = (await Promise.all(maintenance)) as RaceReply[];
      report('20 patches + 10 power + 10 provision + 20 maintenance', result);
      assert.ok(result.maxInFlight >= 20, `only ${result.maxInFlight} in flight at once`);
      assert.ok(result.acknowledged >= 5, `only ${result.acknowledged} PATCHes answered 2xx`);
      assert.ok(answers.some((answer) => answer.status === 202));
      assert.deepEqual(result.lost, [], 'acknowledged updates lost');
    });
  },
  {
    conductorLog,
    conductor: {
      checkProvisionStateInterval: 1,
      syncPowerStateInterval: 1,
      syncLocalStateInterval: 1,
    },
  },
);
