/**
 * The caps in force as the commands show them (`baton db services`, `--json`, `baton
 * upgrade-check`), and `baton db online-migrations` gated on the services table (exit 2,
 * `--force`), for both services, on SQLite (the backends: test/service/deployment-caps.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { CliExit } from '../../src/cli/cli-error.ts';
import { dbOnlineMigrations } from '../../src/cli/db-online-migrations-command.ts';
import { dbServices } from '../../src/cli/db-services-command.ts';
import { upgradeCheck } from '../../src/cli/upgrade-check-command.ts';
import { type Database, openDatabase, registerService } from '../../src/db/index.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { laterRelease } from '../service/support/later-release.ts';
import { baton } from './support/run-baton.ts';

const ANTELOPE = laterRelease(BAREMETAL_SERVICE, 'antelope', 2);
const PLACEMENT_NEXT = laterRelease(PLACEMENT_SERVICE, '2027.1', 2);

const quietEnv = {
  tty: false,
  intervalMs: 60_000,
  stream: process.stderr,
  now: () => performance.now(),
  sleep: async () => {},
  every: () => () => {},
};

describe('caps in force in the commands', () => {
  let dir = '';
  let baremetalUrl = '';
  let placementUrl = '';
  let baremetalDb: Database;
  let placementDb: Database;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'caps-commands-'));
    baremetalUrl = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    placementUrl = `sqlite:${join(dir, 'placement.sqlite')}`;
    for (const [service, url] of [
      ['baremetal', baremetalUrl],
      ['placement', placementUrl],
    ] as const) {
      const upgraded = await baton('db', 'upgrade', '--service', service, '--db', url);
      assert.equal(upgraded.status, 0, upgraded.err);
    }
    baremetalDb = await openDatabase(baremetalUrl);
    placementDb = await openDatabase(placementUrl);
  });
  after(async () => {
    await baremetalDb.close();
    await placementDb.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('db services: the table, then the caps in force (auto from the oldest live one; the pin)', async () => {
    await registerService(baremetalDb, { binary: 'baremetal-conductor', host: 'c1', version: 1 });
    await registerService(baremetalDb, { binary: 'baremetal-api', host: 'a1', version: 2 });
    const lines: string[] = [];
    const options = { service: 'baremetal', db: baremetalUrl };
    assert.equal(await dbServices(options, (line) => lines.push(line), ANTELOPE), 0);
    assert.match(lines.join('\n'), /\| baremetal-conductor \| c1 +\| 1 /);
    assert.equal(
      lines.at(-1),
      // The API maximum is the lowest a live process serves (zed's automatic caps; one version
      // across the pool); the types zed does not know (NodeInventory, and Allocation and DeployTemplate,
      // new to Baton) at their only version.
      'caps in force: auto from baremetal-conductor@1 (zed, host c1); RPC cap 1.0; API max 1.80; objects Node 1.36, Port 1.10, Portgroup 1.4, Chassis 1.3, Conductor 1.3, Trait 1.0, TraitList 1.0, NodeInventory 1.0, Allocation 1.1, DeployTemplate 1.1, BIOSSetting 1.1, NodeHistory 1.0, VolumeConnector 1.0, VolumeTarget 1.0',
    );
    const json: string[] = [];
    await dbServices({ ...options, json: true }, (line) => json.push(line), ANTELOPE);
    const document = JSON.parse(json.join('\n'));
    assert.equal(document.capsInForce.source, 'auto');
    assert.equal(document.capsInForce.release, 'zed');
    assert.deepEqual(document.capsInForce.from, {
      binary: 'baremetal-conductor',
      host: 'c1',
      serviceVersion: 1,
    });
    assert.equal(document.capsInForce.objects.Node, '1.36');
    assert.equal(document.services.length, 2);
    // The real definition is antelope (service version 2): the zed conductor caps it too; the
    // pin wins.
    const real = await baton('db', 'services', '--service', 'baremetal', '--db', baremetalUrl);
    assert.equal(real.status, 0, real.err);
    assert.match(
      real.out,
      /\ncaps in force: auto from baremetal-conductor@1 \(zed, host c1\); RPC cap 1\.0; API max 1\.80; /,
    );
    const pinned = await baton(
      ...['db', 'services', '--service', 'baremetal', '--db', baremetalUrl],
      ...['--pin-release-version', 'yoga', '--json'],
    );
    assert.equal(JSON.parse(pinned.out).capsInForce.description, 'pin yoga');
    const badPin = await baton(
      ...['db', 'services', '--service', 'baremetal', '--db', baremetalUrl],
      ...['--pin-release-version', 'nope'],
    );
    assert.equal(badPin.status, 64);
    assert.match(badPin.err, /^baton: error: pin_release_version 'nope' is not a known release/);
  });

  test('upgrade-check: a "Caps in force" row; the release pin row only for a real pin', async () => {
    const lines: string[] = [];
    const status = await upgradeCheck(
      { service: 'baremetal', db: baremetalUrl },
      (line) => lines.push(line),
      ANTELOPE,
    );
    const table = lines.join('\n');
    assert.match(
      table,
      /Check: Caps in force\s*\|\n\| Result: Success\s*\|\n\| Details: caps in force: auto from baremetal-conductor@1/,
    );
    assert.doesNotMatch(table, /pin_release_version is set/, 'automatic caps are no pin');
    assert.equal(status, 0, 'no binary runs mixed versions: all checks pass');
  });

  test('online-migrations: exit 2 naming the old services and the step; --force runs, saying so', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const options: { service: string; db: string; force?: boolean } = {
      service: 'baremetal',
      db: baremetalUrl,
    };
    await assert.rejects(
      dbOnlineMigrations(
        options,
        (l) => out.push(l),
        quietEnv,
        (l) => err.push(l),
        ANTELOPE,
      ),
      (error: unknown) =>
        error instanceof CliExit &&
        error.status === 2 &&
        error.message.includes(
          'baremetal-conductor on c1 (service version 1, release zed; does not know Node 1.37, Port 1.11, Portgroup 1.5, NodeInventory 1.0, Allocation 1.1, DeployTemplate 1.1, BIOSSetting 1.1, NodeHistory 1.0, VolumeConnector 1.0, VolumeTarget 1.0)',
        ) &&
        error.message.includes('step 1.1 of the rolling upgrade is still to do') &&
        error.message.includes('--force'),
    );
    assert.equal(out.length, 0, 'nothing ran');
    const forced = await dbOnlineMigrations(
      { ...options, force: true },
      (l) => out.push(l),
      quietEnv,
      (l) => err.push(l),
      ANTELOPE,
    );
    assert.equal(forced, 0);
    assert.match(
      err.join('\n'),
      /^baton: warning: --force: running the online data migrations anyway: /,
    );
    assert.match(out.join('\n'), /Data migrations have completed\./);

    // Placement, in its own words (no dialect): the same gate.
    await registerService(placementDb, { binary: 'placement-api', host: 'p1', version: 1 });
    await assert.rejects(
      dbOnlineMigrations(
        { service: 'placement', db: placementUrl },
        () => {},
        quietEnv,
        () => {},
        PLACEMENT_NEXT,
      ),
      (error: unknown) =>
        error instanceof CliExit &&
        error.status === 2 &&
        /placement-api on p1 \(service version 1, release 2026\.1\)\. step 1\.1/.test(
          error.message,
        ),
    );
    // Through the command line, with the real definitions: the gate is open, --force is quiet.
    const real = await baton(
      ...['db', 'online-migrations', '--service', 'placement', '--db', placementUrl, '--force'],
    );
    assert.equal(real.status, 0, real.err);
    assert.doesNotMatch(real.err, /--force/);
  });
});
