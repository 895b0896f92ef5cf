/**
 * The service-version spec against the services table on the three backends: the caps a process starts with
 * (pin, else the oldest live service's release, else latest), the refusal of a deployment too
 * old to talk to, the refresh that follows a rolling upgrade, and the online-migration gate
 * with the rolling-upgrade doc's step, for both services.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { ensureServicesTable, registerService } from '../../src/db/index.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { capsInForce, describeCapsSource } from '../../src/releases/index.ts';
import {
  checkDeployment,
  checkOnlineMigrationGate,
  DeploymentTooOldError,
  followDeployment,
  readDeployment,
  ServiceTooOldError,
} from '../../src/service/index.ts';
import { forEachBackend } from '../db/support/backends.ts';
import { laterRelease } from './support/later-release.ts';

// Bare metal "antelope": service version 2; zed (service version 1) does not know its Node 1.37.
const later = laterRelease(BAREMETAL_SERVICE, 'antelope', 2);
const zed = later.releases.zed;
assert.ok(zed !== undefined);
const zedOld = { ...zed, objects: { ...zed.objects, Node: ['1.35'] } };
const ANTELOPE = { ...later, releases: { ...later.releases, zed: zedOld, '21.1': zedOld } };
// Placement "2027.1": service version 2, its previous release 2026.1 (service version 1).
const PLACEMENT_NEXT = laterRelease(PLACEMENT_SERVICE, '2027.1', 2);
// A third bare metal release: zed (1) is now two releases back.
const BOBCAT = laterRelease({ ...ANTELOPE, releases: { ...ANTELOPE.releases } }, 'bobcat', 3);
const ANTELOPE_ENTRY = later.releases.antelope;
assert.ok(ANTELOPE_ENTRY !== undefined);
Object.assign(BOBCAT, { releases: { ...BOBCAT.releases, antelope: ANTELOPE_ENTRY } });
let hosts = 0;
const host = (name: string) => `${name}-${++hosts}`;

forEachBackend('caps from the deployment', (ctx) => {
  const clear = async () => {
    await ensureServicesTable(ctx.db());
    await ctx
      .db()
      .kysely.deleteFrom('baton_services' as never)
      .execute();
  };

  test('latest with nothing older live; auto from the oldest live process; the pin wins', async () => {
    await clear();
    const unpinned = capsInForce(ANTELOPE.releases, undefined);
    const fresh = await checkDeployment(ctx.db(), ANTELOPE, undefined);
    assert.equal(describeCapsSource(fresh.caps), 'latest');
    const c1 = host('conductor');
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: c1, version: 2 });
    await registerService(ctx.db(), { binary: 'baremetal-api', host: host('api'), version: 2 });
    assert.equal((await readDeployment(ctx.db(), ANTELOPE, undefined)).caps.source.kind, 'latest');
    const c2 = host('conductor');
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: c2, version: 1 });
    // Rows of other binaries (the RPC topic's) do not count.
    await registerService(ctx.db(), { binary: 'ironic.conductor_manager', host: 'x', version: 1 });
    const auto = (await checkDeployment(ctx.db(), ANTELOPE, undefined)).caps;
    assert.equal(describeCapsSource(auto), `auto from baremetal-conductor@1 (zed, host ${c2})`);
    assert.equal(auto.objectTargets.objectVersion('Node', '1.36'), '1.35');
    assert.equal(auto.rpcCap, '1.0');
    // Automatic caps lower the API maximum to the old release's too (zed: 1.80).
    assert.equal(auto.apiMax, zed.api);
    assert.notEqual(auto.apiMax, unpinned.apiMax);
    const pinned = (await checkDeployment(ctx.db(), ANTELOPE, 'antelope')).caps;
    assert.equal(describeCapsSource(pinned), 'pin antelope');
  });

  test('a live process older than the previous release refuses the start, naming it', async () => {
    await clear();
    const old = host('conductor');
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: old, version: 1 });
    await registerService(ctx.db(), { binary: 'baremetal-api', host: host('api'), version: 2 });
    await assert.rejects(
      checkDeployment(ctx.db(), BOBCAT, undefined),
      (error: unknown) =>
        error instanceof DeploymentTooOldError &&
        error instanceof ServiceTooOldError &&
        error.message.includes(`baremetal-conductor on ${old} (service version 1)`) &&
        error.message.includes('previous release antelope (service version 2)') &&
        /Upgrade those services to release antelope first/.test(error.message),
    );
    // Dead rows never count: the same process, not seen for two minutes.
    await clear();
    await registerService(ctx.db(), {
      binary: 'baremetal-conductor',
      host: old,
      version: 1,
      clock: () => Date.now() - 120_000,
    });
    await checkDeployment(ctx.db(), BOBCAT, undefined);
  });

  test('a refresh follows the rolling upgrade: caps rise once the last old process is gone', async () => {
    await clear();
    const old = host('conductor');
    const registration = await registerService(ctx.db(), {
      binary: 'baremetal-conductor',
      host: old,
      version: 1,
    });
    const lines: string[] = [];
    const deployment = await followDeployment(
      ctx.db(),
      ANTELOPE,
      capsInForce(ANTELOPE.releases, undefined),
      { log: { info: (m) => lines.push(m), warn: (m) => lines.push(`warn: ${m}`) } },
    );
    const targets = deployment.caps.objectTargets;
    assert.equal(targets.objectVersion('Node', '1.36'), '1.35');
    assert.equal((await deployment.refresh()).changed, false);
    await registration.deregister();
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: old, version: 2 });
    const refreshed = await deployment.refresh();
    assert.equal(refreshed.changed, true);
    assert.equal(describeCapsSource(deployment.caps), 'latest');
    assert.equal(targets.objectVersion('Node', '1.36'), '1.36', 'consumers built before follow');
    assert.match(
      lines.at(-1) ?? '',
      /caps in force: latest; .* \(were: auto from baremetal-conductor@1/,
    );
    // An old process coming back lowers them again on the next refresh.
    await registerService(ctx.db(), { binary: 'baremetal-api', host: host('api'), version: 1 });
    await deployment.refresh();
    assert.equal(deployment.caps.release, 'zed');
  });

  test('the online-migration gate names the old processes and the step to do, for both services', async () => {
    await clear();
    const open = await checkOnlineMigrationGate(ctx.db(), ANTELOPE);
    assert.equal(open.message, undefined);
    const c1 = host('conductor');
    const c2 = host('conductor');
    const a1 = host('api');
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: c1, version: 1 });
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: c2, version: 1 });
    await registerService(ctx.db(), { binary: 'baremetal-api', host: a1, version: 1 });
    let gate = await checkOnlineMigrationGate(ctx.db(), ANTELOPE);
    assert.equal(gate.blockers.length, 3);
    assert.match(
      gate.message ?? '',
      new RegExp(
        `baremetal-conductor on ${c1} \\(service version 1, release zed; does not know Node 1\\.37, Port 1\\.11`,
      ),
    );
    assert.match(
      gate.message ?? '',
      /step 1\.1 of the rolling upgrade is still to do: upgrade the code of every baremetal-conductor \(2 of 2 live/,
    );
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: c1, version: 2 });
    gate = await checkOnlineMigrationGate(ctx.db(), ANTELOPE);
    assert.match(gate.message ?? '', /step 1\.2 .* \(1 of 2 live/);
    await registerService(ctx.db(), { binary: 'baremetal-conductor', host: c2, version: 2 });
    gate = await checkOnlineMigrationGate(ctx.db(), ANTELOPE);
    assert.match(gate.message ?? '', /step 2\.1 .* every baremetal-api \(1 of 1 live/);
    assert.doesNotMatch(gate.message ?? '', /baremetal-conductor on/);
    await registerService(ctx.db(), { binary: 'baremetal-api', host: a1, version: 2 });
    assert.equal((await checkOnlineMigrationGate(ctx.db(), ANTELOPE)).message, undefined);

    await clear();
    const p1 = host('placement');
    await registerService(ctx.db(), { binary: 'placement-api', host: p1, version: 1 });
    gate = await checkOnlineMigrationGate(ctx.db(), PLACEMENT_NEXT);
    assert.match(
      gate.message ?? '',
      new RegExp(`placement-api on ${p1} \\(service version 1, release 2026\\.1\\)\\. step 1\\.1`),
    );
    assert.equal((await checkOnlineMigrationGate(ctx.db(), PLACEMENT_SERVICE)).message, undefined);
  });
});
