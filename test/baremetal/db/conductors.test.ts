/** Conductors: register, heartbeat, unregister, liveness, hardware interfaces. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ConductorAlreadyRegisteredError,
  DuplicateError,
  InvalidConductorGroupError,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import { Conductor } from '../../../src/baremetal/objects/index.ts';
import { forEachStoreBackend, unique } from '../support/store-fixtures.ts';

const FAKE = [
  {
    hardware_type: 'fake-hardware',
    interface_type: 'power',
    interface_name: 'fake',
    default: true,
  },
  {
    hardware_type: 'fake-hardware',
    interface_type: 'deploy',
    interface_name: 'fake',
    default: true,
  },
  {
    hardware_type: 'fake-hardware',
    interface_type: 'deploy',
    interface_name: 'direct',
    default: false,
  },
];

forEachStoreBackend('bare metal conductors', (ctx) => {
  test('register: online, touched now, drivers and a lower-cased group, at the target version', async () => {
    const store = ctx.store();
    const hostname = unique('cond');
    const conductor = await store.conductors.register({
      hostname,
      drivers: ['fake-hardware', 'ipmi'],
      conductor_group: 'Rack1',
    });
    assert.equal(conductor.get('hostname'), hostname);
    assert.deepEqual(conductor.get('drivers'), ['fake-hardware', 'ipmi']);
    assert.equal(conductor.get('conductor_group'), 'rack1');
    assert.equal(conductor.get('updated_at')?.toDate().toISOString(), ctx.clock.now.toISOString());
    assert.equal(conductor.version, Conductor.version);
    const row = await ctx
      .db()
      .kysely.selectFrom('conductors')
      .select(['online', 'version'])
      .where('hostname', '=', hostname)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(Number(row.online)), true);
    assert.equal(row.version, '1.3');
    await assert.rejects(
      store.conductors.register({
        hostname: unique('cond'),
        drivers: [],
        conductor_group: 'no spaces',
      }),
      InvalidConductorGroupError,
    );
  });

  test('an online conductor of that hostname is refused unless updating; an offline one is taken over', async () => {
    const store = ctx.store();
    const hostname = unique('cond');
    const first = await store.conductors.register({
      hostname,
      drivers: ['a'],
      conductor_group: '',
    });
    await assert.rejects(
      store.conductors.register({ hostname, drivers: ['b'], conductor_group: '' }),
      (e: unknown) =>
        e instanceof ConductorAlreadyRegisteredError &&
        e.message === `Conductor ${hostname} already registered.`,
    );
    const updated = await store.conductors.register(
      { hostname, drivers: ['b'], conductor_group: 'g' },
      { updateExisting: true },
    );
    assert.equal(updated.get('id'), first.get('id'));
    assert.deepEqual(updated.get('drivers'), ['b']);
    await store.conductors.unregister(hostname);
    const again = await store.conductors.register({
      hostname,
      drivers: ['c'],
      conductor_group: '',
    });
    assert.equal(again.get('id'), first.get('id'));
  });

  test('unregister: offline, hardware interfaces gone; found again only with online: false or null', async () => {
    const store = ctx.store();
    const hostname = unique('cond');
    const conductor = await store.conductors.register({
      hostname,
      drivers: ['fake-hardware'],
      conductor_group: '',
    });
    await store.conductors.registerHardwareInterfaces(conductor.get('id'), FAKE);
    await store.conductors.unregister(hostname);
    await assert.rejects(store.conductors.get(hostname), NotFoundError);
    assert.equal((await store.conductors.get(hostname, false)).get('id'), conductor.get('id'));
    assert.equal((await store.conductors.get(hostname, null)).get('id'), conductor.get('id'));
    assert.deepEqual(await store.conductors.listHardwareInterfaces(conductor.get('id')), []);
    await assert.rejects(
      store.conductors.unregister(hostname),
      (e: unknown) =>
        e instanceof NotFoundError && e.message === `Conductor ${hostname} could not be found.`,
    );
    await assert.rejects(store.conductors.touch(unique('nobody')), NotFoundError);
  });

  test('alive means online and touched within the heartbeat timeout', async () => {
    const store = ctx.store();
    const start = new Date('2026-04-01T00:00:00.000Z');
    ctx.clock.now = start;
    const beating = unique('beating');
    const silent = unique('silent');
    const stopped = unique('stopped');
    for (const hostname of [beating, silent, stopped])
      await store.conductors.register({ hostname, drivers: [], conductor_group: '' });
    await store.conductors.unregister(stopped);
    ctx.clock.now = new Date(start.getTime() + 50_000);
    await store.conductors.touch(beating);
    ctx.clock.now = new Date(start.getTime() + 70_000);
    const active = await store.conductors.active(60);
    assert.ok(active.includes(beating));
    assert.ok(!active.includes(silent));
    assert.ok(!active.includes(stopped));
    const offline = await store.conductors.offline(60);
    assert.ok(offline.includes(silent));
    assert.ok(!offline.includes(beating));
  });

  test('hardware interfaces: registered once, listed, by type and for the hash ring', async () => {
    const store = ctx.store();
    ctx.clock.now = new Date('2026-05-01T00:00:00.000Z');
    const group = unique('hw').toLowerCase();
    const a = await store.conductors.register({
      hostname: unique('hw-a'),
      drivers: [],
      conductor_group: group,
    });
    const b = await store.conductors.register({
      hostname: unique('hw-b'),
      drivers: [],
      conductor_group: '',
    });
    await store.conductors.registerHardwareInterfaces(a.get('id'), FAKE);
    await store.conductors.registerHardwareInterfaces(b.get('id'), FAKE.slice(0, 1));
    await assert.rejects(
      store.conductors.registerHardwareInterfaces(a.get('id'), FAKE.slice(0, 1)),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.kind === 'conductor_hardware_interface' &&
        /^Duplication detected/.test(e.message),
    );
    const mine = await store.conductors.listHardwareInterfaces(a.get('id'));
    assert.deepEqual(
      mine.map(({ conductor_id: _, ...rest }) => rest),
      FAKE,
    );
    const byType = await store.conductors.listHardwareTypeInterfaces(['fake-hardware'], 60);
    assert.ok(byType.some((i) => i.conductor_id === b.get('id')));
    const ring = await store.conductors.activeHardwareTypes(60);
    assert.ok(ring.get('fake-hardware')?.has(a.get('hostname')));
    assert.ok(ring.get('fake-hardware')?.has(b.get('hostname')));
    const grouped = await store.conductors.activeHardwareTypes(60, { useGroups: true });
    assert.deepEqual([...(grouped.get(`${group}:fake-hardware`) ?? [])], [a.get('hostname')]);
    // A conductor that stops beating leaves the ring.
    ctx.clock.now = new Date('2026-05-01T00:02:00.000Z');
    await store.conductors.touch(b.get('hostname'));
    const later = await store.conductors.activeHardwareTypes(60);
    assert.deepEqual([...(later.get('fake-hardware') ?? [])], [b.get('hostname')]);
  });

  test('the list pages by hostname markers', async () => {
    const store = ctx.store();
    const prefix = unique('zz-list');
    for (const suffix of ['b', 'a', 'c'])
      await store.conductors.register({
        hostname: `${prefix}-${suffix}`,
        drivers: [],
        conductor_group: '',
      });
    const all = (await store.conductors.list({ sortKey: 'hostname' })).map((c) =>
      c.get('hostname'),
    );
    const mine = all.filter((h) => h.startsWith(prefix));
    assert.deepEqual(
      mine,
      ['a', 'b', 'c'].map((s) => `${prefix}-${s}`),
    );
    const after = await store.conductors.list({
      sortKey: 'hostname',
      marker: `${prefix}-a`,
      limit: 1,
    });
    assert.deepEqual(
      after.map((c) => c.get('hostname')),
      [`${prefix}-b`],
    );
    await assert.rejects(store.conductors.list({ marker: 'no-such-host' }), NotFoundError);
  });
});
