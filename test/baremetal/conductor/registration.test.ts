/**
 * What a conductor registers and leaves (SQLite, http RPC): its conductors row (hostname,
 * drivers, group, online, object version) and hardware interfaces, its services-table rows
 * (the process, and the http RPC address under the conductor topic); after a crash, the next
 * start takes the row over and clears what its previous life held.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startConductor } from '../../../src/baremetal/conductor/conductor-process.ts';
import {
  defaultConductorSettings,
  FAKE_NO_DELAYS,
} from '../../../src/baremetal/conductor/conductor-settings.ts';
import { BUILTIN_DRIVERS } from '../../../src/baremetal/drivers/driver-catalog.ts';
import { DriverFactory } from '../../../src/baremetal/drivers/driver-factory.ts';
import { type Database, listServices } from '../../../src/db/index.ts';
import { LocalBus, LocalTransport } from '../../../src/rpc/index.ts';
import {
  apiStore,
  httpTransport,
  newNode,
  openTestDatabase,
  startTestConductor,
  testSettings,
  UNPINNED,
} from './support/conductor-harness.ts';

describe('conductor registration', () => {
  let dir: string;
  let url: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-reg-'));
    url = `sqlite:${join(dir, 'bm.sqlite')}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('registers itself, its interfaces and its services rows, and leaves them on stop', async () => {
    const t = await httpTransport(url, 60);
    const database = await openTestDatabase(url);
    try {
      const c = await startTestConductor({
        url,
        host: 'reg-1',
        transport: t.transport,
        settings: { conductorGroup: 'rack-a' },
        registerService: true,
      });
      const store = apiStore(database);
      const row = await store.conductors.get('reg-1');
      assert.deepEqual(row.get('drivers'), ['fake-hardware']);
      assert.equal(row.get('conductor_group'), 'rack-a');
      assert.equal(row.get('hostname'), 'reg-1');
      const interfaces = await store.conductors.listHardwareInterfaces(row.get('id'));
      const expected = DriverFactory.load(
        BUILTIN_DRIVERS,
        defaultConductorSettings('reg-1'),
        { fake: FAKE_NO_DELAYS },
        'reg-1',
      ).registrationRows();
      assert.equal(interfaces.length, expected.length);
      assert.deepEqual(
        interfaces
          .filter((i) => i.default)
          .map((i) => `${i.interface_type}=${i.interface_name}`)
          .sort(),
        expected
          .filter((i) => i.default)
          .map((i) => `${i.interfaceType}=${i.interfaceName}`)
          .sort(),
      );
      const version = await database.kysely
        .selectFrom('conductors')
        .select(['version', 'online'])
        .where('hostname', '=', 'reg-1')
        .executeTakeFirstOrThrow();
      assert.equal(version.version, '1.3');
      const services = await listServices(database as unknown as Database);
      const mine = services
        .filter((s) => s.host === 'reg-1')
        .map((s) => s.binary)
        .sort();
      assert.deepEqual(mine, ['baremetal-conductor', 'ironic.conductor_manager']);
      assert.match(
        String(services.find((s) => s.binary === 'ironic.conductor_manager')?.rpcAddress),
        /^http:\/\/127\.0\.0\.1:\d+$/,
      );

      assert.equal(await c.stop(), true);
      const offline = await database.kysely
        .selectFrom('conductors')
        .select('online')
        .where('hostname', '=', 'reg-1')
        .executeTakeFirstOrThrow();
      assert.equal(Boolean(Number(offline.online)), false);
      assert.deepEqual(await store.conductors.listHardwareInterfaces(row.get('id')), []);
      assert.deepEqual(
        (await listServices(database as unknown as Database)).filter((s) => s.host === 'reg-1'),
        [],
      );
    } finally {
      await database.close();
      await t.close();
    }
  });

  it('after a crash, takes its row over and clears the reservations and power targets it held', async () => {
    const database = await openTestDatabase(url);
    const t = await httpTransport(url, 60);
    try {
      const store = apiStore(database);
      // A previous life of reg-2: registered, online, holding a node waiting for power.
      await store.conductors.register({
        hostname: 'reg-2',
        drivers: ['fake-hardware'],
        conductor_group: '',
      });
      const node = await store.nodes.create(newNode());
      node.set('target_power_state', 'power on');
      await store.nodes.save(node);
      await store.reservations.reserve('reg-2', node.get('id'));
      const c = await startTestConductor({ url, host: 'reg-2', transport: t.transport });
      try {
        const after = await store.nodes.get(String(node.get('uuid')));
        assert.equal(after.get('reservation'), null);
        assert.equal(after.get('target_power_state'), null);
        assert.equal(
          after.get('last_error'),
          'Pending power operation was aborted due to conductor restart',
        );
        assert.equal((await store.conductors.active(60)).includes('reg-2'), true);
      } finally {
        await c.stop();
      }
    } finally {
      await database.close();
      await t.close();
    }
  });

  it('does not start when a default is not enabled, and leaves nothing behind', async () => {
    const database = await openTestDatabase(url);
    const errors: string[] = [];
    try {
      await assert.rejects(
        startConductor({
          settings: testSettings('reg-3', { defaultInterfaces: { console: 'fake' } }),
          database,
          caps: UNPINNED,
          transport: new LocalTransport(new LocalBus()),
          log: { info: () => {}, warn: () => {}, error: (m) => errors.push(m) },
        }),
        (error: Error) =>
          error.name === 'ConductorDriversError' &&
          (error.cause as Error).name === 'InterfaceNotFoundInEntrypointError',
      );
      // What the real conductor logs before it exits.
      assert.deepEqual(errors, [
        "Failed to register hardware types. Could not find the following interface in the 'ironic.hardware.interfaces.console' entrypoint: fake. Valid interfaces are ['no-console'].",
      ]);
      await assert.rejects(apiStore(database).conductors.get('reg-3'), { name: 'NotFoundError' });
    } finally {
      await database.close();
    }
  });
});
