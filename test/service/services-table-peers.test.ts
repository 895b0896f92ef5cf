/**
 * The http transport's peer directory kept in the services table: an announced server is
 * a row (binary = topic, host = server, its address and the service version), clients see
 * only live rows with an address, and withdrawing removes the row.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listServices, registerService } from '../../src/db/index.ts';
import { servicesTablePeers } from '../../src/service/index.ts';
import { forEachBackend } from '../db/support/backends.ts';

forEachBackend('services-table peer directory', (ctx) => {
  test('a server announced is a row; found while live and addressed; gone once withdrawn', async () => {
    const peers = servicesTablePeers(ctx.db(), { serviceVersion: 7, liveWithinSeconds: 60 });
    const registration = await peers.registerSelf({
      topic: 'conductor',
      server: 'c1',
      address: 'http://127.0.0.1:4711',
    });
    const row = (await listServices(ctx.db())).find((s) => s.binary === 'conductor');
    assert.deepEqual(
      { host: row?.host, version: row?.version, rpcAddress: row?.rpcAddress },
      { host: 'c1', version: 7, rpcAddress: 'http://127.0.0.1:4711' },
    );
    // Not peers: a process without an RPC address, and a server last seen long ago.
    await registerService(ctx.db(), { binary: 'conductor', host: 'no-address', version: 7 });
    const longAgo = Date.now() - 3600_000;
    await registerService(ctx.db(), {
      binary: 'conductor',
      host: 'c0',
      version: 7,
      rpcAddress: 'http://127.0.0.1:1',
      clock: () => longAgo,
    });
    assert.deepEqual(await peers.findPeers(), [
      { topic: 'conductor', server: 'c1', address: 'http://127.0.0.1:4711' },
    ]);
    await registration.withdraw();
    assert.deepEqual(await peers.findPeers(), []);
    assert.equal(
      (await listServices(ctx.db())).some((s) => s.host === 'c1'),
      false,
    );
  });
});
