/** A service process and the services table: the version check at start, then register and leave. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listServices, registerService } from '../../src/db/index.ts';
import { checkPeerVersions, registerProcess, ServiceTooOldError } from '../../src/service/index.ts';
import { forEachBackend } from '../db/support/backends.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

forEachBackend('service process registration', (ctx) => {
  test('a process too far behind its live peers is refused; one behind at all is warned', async () => {
    await registerService(ctx.db(), { binary: 'widget-api', host: 'peer:1', version: 3 });
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    await assert.rejects(
      checkPeerVersions(ctx.db(), { binary: 'widget-api', version: 1, supportedSpan: 1 }, warn),
      (error: unknown) =>
        error instanceof ServiceTooOldError &&
        /widget-api service version 1 is too old/.test(error.message),
    );
    assert.deepEqual(warnings, []);
    await checkPeerVersions(ctx.db(), { binary: 'widget-api', version: 2, supportedSpan: 1 }, warn);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /older than every live peer/);
    await checkPeerVersions(ctx.db(), { binary: 'widget-api', version: 3, supportedSpan: 1 }, warn);
    assert.equal(warnings.length, 1, 'a process at its peers’ version starts quietly');
  });

  test('a registered process heartbeats until it leaves, and leaving removes its row', async () => {
    const own = async () =>
      (await listServices(ctx.db())).find((s) => s.binary === 'gadget-api' && s.host === 'me:2');
    const registration = await registerProcess(
      ctx.db(),
      { binary: 'gadget-api', host: 'me:2', version: 4 },
      { heartbeatSeconds: 0.1, warn: (message) => assert.fail(message) },
    );
    const first = (await own())?.lastSeen.getTime() ?? 0;
    assert.equal((await own())?.version, 4);
    await sleep(1100);
    const later = (await own())?.lastSeen.getTime() ?? 0;
    assert.ok(later > first, `the row was refreshed: ${later} > ${first}`);
    await registration.leave();
    assert.equal(await own(), undefined);
  });
});
