/**
 * The load generator against a real conductor and API of the working tree (SQLite, http RPC):
 * every kind of request is sent and recorded, nothing fails on a quiet cluster, and what it
 * saw acknowledged passes the data check once the cluster stopped. Then the same generator
 * against a server answering 503: every request is a failure, none is sent twice.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase } from '../../src/db/index.ts';
import { processConfigText } from '../../src/rehearsal/cluster-config.ts';
import { checkData } from '../../src/rehearsal/data-check.ts';
import { nodeRows, portRows } from '../../src/rehearsal/database-snapshot.ts';
import { freePort } from '../../src/rehearsal/free-port.ts';
import { Ledger } from '../../src/rehearsal/ledger.ts';
import { drawOperation, LOAD_MIX, LoadGenerator } from '../../src/rehearsal/load-generator.ts';
import { runBaton, startBaton, stopProcess } from '../../src/rehearsal/processes.ts';
import { RequestLog, windowFigures } from '../../src/rehearsal/request-log.ts';

const ROOT = join(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('load generator', () => {
  it('draws every operation of the mix by weight', () => {
    const total = Object.values(LOAD_MIX).reduce((a, b) => a + b, 0);
    const drawn = new Map<string, number>();
    for (let roll = 0; roll < total; roll++) {
      const operation = drawOperation(roll);
      drawn.set(operation, (drawn.get(operation) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(drawn), LOAD_MIX);
  });

  it('drives a real cluster with every kind of request, and its writes pass the data check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rehearsal-load-'));
    const databaseUrl = `sqlite:${join(dir, 'b.sqlite')}`;
    const schema = await runBaton(ROOT, [
      'db',
      'upgrade',
      '--service',
      'baremetal',
      '--db',
      databaseUrl,
    ]);
    assert.equal(schema.status, 0, schema.output);
    const apiPort = await freePort();
    const config = async (host: string, api: boolean) => {
      const file = join(dir, `${host}.conf`);
      await writeFile(
        file,
        processConfigText({
          host,
          databaseUrl,
          rpc: 'http',
          pin: '',
          metricsPort: await freePort(),
          logFile: join(dir, `${host}.log`),
          ...(api ? { apiPort, drainWait: 1 } : {}),
        }),
      );
      return file;
    };
    const conductor = await startBaton(
      'cond',
      ROOT,
      ['baremetal', 'conductor', '--config-file', await config('cond', false)],
      { ready: /serving topic/, logDir: dir },
    );
    const api = await startBaton(
      'api',
      ROOT,
      ['baremetal', 'api', '--config-file', await config('api', true)],
      { ready: /listening on/, logDir: dir },
    );
    const log = new RequestLog();
    const ledger = new Ledger();
    try {
      const generator = new LoadGenerator({
        baseUrl: `http://127.0.0.1:${apiPort}`,
        microversion: '1.80',
        workers: 4,
        rate: 40,
        runId: 'lt',
        log,
        ledger,
      });
      const started = Date.now();
      generator.start();
      // Runs until it has shown what the test checks (every kind of request, a provisioning
      // cycle), not for a fixed time that a loaded machine may not fill; from the moment the
      // old kinds are seen, the API (this tree, unpinned) is also asked what only the new
      // release serves.
      const oldKinds = ['node-create', 'node-patch', 'port-create', 'provision', 'poll'];
      const kinds = [...oldKinds, 'shard-set', 'show-new', 'inventory'];
      const seen = (wanted: readonly string[]) =>
        log.records.length > 40 &&
        wanted.every((kind) => log.records.some((r) => r.kind === kind)) &&
        [...ledger.nodes.values()].some((node) => node.provisionState === 'available');
      for (const deadline = Date.now() + 120_000; !seen(oldKinds) && Date.now() < deadline; ) {
        await sleep(200);
      }
      generator.setNewReleaseApis([`http://127.0.0.1:${apiPort}`]);
      for (const deadline = Date.now() + 60_000; !seen(kinds) && Date.now() < deadline; ) {
        await sleep(200);
      }
      await generator.stop();
      const figures = windowFigures(log, started, Date.now() + 1);
      assert.equal(figures.failed, 0, JSON.stringify(log.records.filter((r) => !r.ok).slice(0, 3)));
      assert.deepEqual(log.outcomeFailures, []);
      assert.ok(figures.requests > 40, `${figures.requests} requests`);
      for (const kind of kinds) {
        assert.ok((figures.byKind as Record<string, number>)[kind], `${kind} sent`);
      }
      assert.ok(
        [...ledger.nodes.values()].some((node) => node.provisionState === 'available'),
        'a node went through a provisioning cycle',
      );
    } finally {
      assert.equal(await stopProcess(api), 0, api.output());
      assert.equal(await stopProcess(conductor), 0, conductor.output());
    }
    const db = await openDatabase(databaseUrl);
    try {
      const result = checkData(ledger, await nodeRows(db), await portRows(db));
      assert.deepEqual(result.problems, []);
      assert.equal(result.nodesInDatabase, ledger.nodes.size);
      assert.ok(result.compared['shard @1.82'], JSON.stringify(result.compared));
      assert.ok(result.compared['inventory @1.80'], JSON.stringify(result.compared));
    } finally {
      await db.close();
    }
  });

  it('records every answer it did not expect as a failure, and sends each request once', async () => {
    // A server answering 503 to everything, counting what reaches it.
    let hits = 0;
    const server = createServer((_request, response) => {
      hits++;
      response.writeHead(503, { 'Content-Type': 'text/plain' }).end('down');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const log = new RequestLog();
    const generator = new LoadGenerator({
      baseUrl: `http://127.0.0.1:${port}`,
      microversion: '1.80',
      workers: 2,
      rate: 20,
      runId: 'down',
      log,
      ledger: new Ledger(),
    });
    generator.start();
    await sleep(1_000);
    await generator.stop();
    server.close();
    assert.ok(log.records.length >= 3, `${log.records.length} requests`);
    assert.ok(log.records.every((r) => !r.ok && r.status === 503 && r.detail === 'down'));
    assert.equal(hits, log.records.length, 'no request was sent twice');
    const figures = windowFigures(log, 0, Date.now() + 1);
    assert.equal(figures.failed, log.records.length);
  });
});
