import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSchema } from '../../../src/db/migrations/index.ts';
import {
  allAtLeast,
  checkStartup,
  InvalidServiceIdentityError,
  InvalidServiceVersionError,
  listServices,
  minimumVersion,
  registerService,
  removeDeadServices,
  SERVICES_SCHEMA,
} from '../../../src/db/services/index.ts';
import { forEachBackend } from '../support/backends.ts';

const T0 = 1_700_000_000_000;
const SECOND = 1000;

forEachBackend('services table', (ctx) => {
  let now = T0;
  const clock = () => now;
  const live = { liveWithinSeconds: 60, clock };

  test('a registered service is listed as live with its version', async () => {
    now = T0;
    const reg = await registerService(ctx.db(), { binary: 'api', host: 'h1', version: 3, clock });
    const rows = (await listServices(ctx.db(), live)).filter((s) => s.binary === 'api');
    assert.equal(rows.length, 1);
    assert.deepEqual(
      { id: rows[0]?.id, host: rows[0]?.host, version: rows[0]?.version, live: rows[0]?.live },
      { id: reg.id, host: 'h1', version: 3, live: true },
    );
    assert.equal(rows[0]?.startedAt.getTime(), T0);
    assert.equal(await minimumVersion(ctx.db(), 'api', live), 3);
  });

  test('the pin and caps release are written with the row and every heartbeat; left out, kept', async () => {
    now = T0;
    let caps: { pin: string | undefined; release: string | undefined } = {
      pin: undefined,
      release: 'zed',
    };
    const reg = await registerService(ctx.db(), {
      binary: 'capped',
      host: 'h1',
      version: 2,
      clock,
      caps: () => caps,
    });
    const row = async () =>
      (await listServices(ctx.db(), live)).find((s) => s.binary === 'capped' && s.host === 'h1');
    assert.deepEqual([(await row())?.pinRelease, (await row())?.capsRelease], [undefined, 'zed']);
    // A SIGHUP lifted the automatic caps: the next heartbeat says so.
    caps = { pin: undefined, release: undefined };
    await reg.heartbeat();
    assert.deepEqual(
      [(await row())?.pinRelease, (await row())?.capsRelease],
      [undefined, undefined],
    );
    caps = { pin: 'zed', release: 'zed' };
    await reg.heartbeat();
    assert.deepEqual([(await row())?.pinRelease, (await row())?.capsRelease], ['zed', 'zed']);
    // Code that records no caps (Placement, an older release) leaves them as they are.
    await registerService(ctx.db(), { binary: 'capped', host: 'h1', version: 2, clock });
    assert.equal((await row())?.pinRelease, 'zed');
    await reg.deregister();
  });

  test('an RPC address is stored with the row, kept when re-registering without one', async () => {
    now = T0;
    await registerService(ctx.db(), {
      binary: 'rpc-topic',
      host: 'h1',
      version: 1,
      clock,
      rpcAddress: 'http://127.0.0.1:4711',
    });
    await registerService(ctx.db(), { binary: 'rpc-topic', host: 'h2', version: 1, clock });
    await registerService(ctx.db(), { binary: 'rpc-topic', host: 'h1', version: 2, clock });
    const rows = (await listServices(ctx.db(), live)).filter((s) => s.binary === 'rpc-topic');
    assert.deepEqual(
      rows.map((s) => [s.host, s.version, s.rpcAddress]),
      [
        ['h1', 2, 'http://127.0.0.1:4711'],
        ['h2', 1, undefined],
      ],
    );
    await assert.rejects(
      registerService(ctx.db(), { binary: 'x', host: 'h', version: 1, rpcAddress: '' }),
      InvalidServiceIdentityError,
    );
    // The column came from a migration of the services table's own history.
    const report = await checkSchema(ctx.db(), SERVICES_SCHEMA);
    assert.equal(report.state, 'current');
  });

  test('registering the same binary and host again replaces the row (a restart)', async () => {
    now = T0;
    const first = await registerService(ctx.db(), { binary: 'rst', host: 'h', version: 1, clock });
    now = T0 + 5 * SECOND;
    const second = await registerService(ctx.db(), { binary: 'rst', host: 'h', version: 2, clock });
    assert.equal(second.id, first.id);
    const rows = (await listServices(ctx.db(), live)).filter((s) => s.binary === 'rst');
    assert.deepEqual(
      rows.map((s) => [s.version, s.startedAt.getTime()]),
      [[2, T0 + 5 * SECOND]],
    );
    assert.equal(await minimumVersion(ctx.db(), 'rst', live), 2);
  });

  test('the minimum counts only live services; a heartbeat keeps one live', async () => {
    now = T0;
    const old = await registerService(ctx.db(), { binary: 'cond', host: 'a', version: 1, clock });
    await registerService(ctx.db(), { binary: 'cond', host: 'b', version: 2, clock });
    await registerService(ctx.db(), { binary: 'other', host: 'a', version: 9, clock });
    assert.equal(await minimumVersion(ctx.db(), 'cond', live), 1);
    assert.equal(await allAtLeast(ctx.db(), 'cond', 2, live), false);

    // 'b' heartbeats, 'a' (version 1) stops: after the window only 'b' counts.
    now = T0 + 50 * SECOND;
    const rows = await listServices(ctx.db(), live);
    assert.ok(rows.every((s) => s.live));
    now = T0 + 61 * SECOND;
    assert.equal(await minimumVersion(ctx.db(), 'cond', live), undefined);
    now = T0 + 30 * SECOND;
    await (
      await registerService(ctx.db(), { binary: 'cond', host: 'b', version: 2, clock })
    ).heartbeat();
    now = T0 + 70 * SECOND;
    assert.equal(await minimumVersion(ctx.db(), 'cond', live), 2);
    assert.equal(await allAtLeast(ctx.db(), 'cond', 2, live), true);
    assert.equal(await allAtLeast(ctx.db(), 'cond', 3, live), false);
    const listed = (await listServices(ctx.db(), live)).filter((s) => s.binary === 'cond');
    assert.deepEqual(
      listed.map((s) => [s.host, s.live]),
      [
        ['a', false],
        ['b', true],
      ],
    );

    // The old one comes back to life: it holds the minimum again.
    await old.heartbeat();
    assert.equal(await minimumVersion(ctx.db(), 'cond', live), 1);
  });

  test('no live service of a binary: no minimum, and every version is reached', async () => {
    now = T0;
    assert.equal(await minimumVersion(ctx.db(), 'nobody', live), undefined);
    assert.equal(await allAtLeast(ctx.db(), 'nobody', 99, live), true);
  });

  test('heartbeats move last_seen only; a removed row comes back with the same id', async () => {
    now = T0;
    const reg = await registerService(ctx.db(), { binary: 'hb', host: 'h', version: 4, clock });
    await reg.heartbeat();
    await reg.heartbeat(); // same instant: MySQL reports no changed row, which must not re-register
    now = T0 + 10 * SECOND;
    await reg.heartbeat();
    let row = (await listServices(ctx.db(), live)).find((s) => s.binary === 'hb');
    assert.deepEqual([row?.startedAt.getTime(), row?.lastSeen.getTime()], [T0, T0 + 10 * SECOND]);

    now = T0 + 1000 * SECOND;
    const removed = await removeDeadServices(ctx.db(), { deadAfterSeconds: 300, clock });
    assert.ok(removed.some((s) => s.id === reg.id));
    await reg.heartbeat();
    row = (await listServices(ctx.db(), live)).find((s) => s.binary === 'hb');
    assert.equal(row?.id, reg.id);
    assert.equal(row?.live, true);
  });

  test('deregister removes the row', async () => {
    now = T0;
    const reg = await registerService(ctx.db(), { binary: 'dereg', host: 'h', version: 1, clock });
    await reg.deregister();
    assert.equal(
      (await listServices(ctx.db(), live)).filter((s) => s.binary === 'dereg').length,
      0,
    );
  });

  test('a heartbeat racing deregister never brings the row back', async () => {
    now = T0;
    const reg = await registerService(ctx.db(), { binary: 'race', host: 'h', version: 1, clock });
    // A heartbeat already running when the process deregisters, and one arriving after.
    const during = reg.heartbeat();
    const leaving = reg.deregister();
    const after = reg.heartbeat();
    await Promise.all([during, leaving, after]);
    await reg.heartbeat();
    assert.deepEqual(
      (await listServices(ctx.db(), live)).filter((s) => s.binary === 'race'),
      [],
    );
  });

  test('startup: refuse when too far behind the oldest live peer, warn when behind', async () => {
    now = T0;
    await registerService(ctx.db(), { binary: 'su', host: 'p1', version: 5, clock });
    await registerService(ctx.db(), { binary: 'su', host: 'p2', version: 7, clock });
    // A dead, even older peer never counts.
    now = T0 - 3600 * SECOND;
    await registerService(ctx.db(), { binary: 'su', host: 'dead', version: 1, clock });
    now = T0;
    const check = (version: number, host?: string) =>
      checkStartup(ctx.db(), { binary: 'su', version, supportedSpan: 1, host, ...live });

    const refused = await check(3);
    assert.equal(refused.ok, false);
    assert.equal(refused.oldestPeerVersion, 5);
    assert.match(refused.refuse ?? '', /su service version 3 is too old to run.*version 5/);

    const warned = await check(4);
    assert.deepEqual([warned.ok, warned.refuse, warned.oldestPeerVersion], [true, undefined, 5]);
    assert.match(warned.warn ?? '', /su service version 4 is older than every live peer/);

    assert.deepEqual(await check(5), { ok: true, oldestPeerVersion: 5 });
    assert.deepEqual(await check(8), { ok: true, oldestPeerVersion: 5 });
    // Its own row (an earlier run on the same host) is not a peer.
    assert.deepEqual(await check(7, 'p1'), { ok: true, oldestPeerVersion: 7 });
    assert.deepEqual(
      await checkStartup(ctx.db(), { binary: 'lonely', version: 1, supportedSpan: 0, ...live }),
      { ok: true },
    );
  });

  test('removeDead deletes only services not seen within the window', async () => {
    now = T0;
    await registerService(ctx.db(), { binary: 'rd', host: 'gone', version: 1, clock });
    now = T0 + 200 * SECOND;
    await registerService(ctx.db(), { binary: 'rd', host: 'here', version: 1, clock });
    const removed = await removeDeadServices(ctx.db(), { deadAfterSeconds: 100, clock });
    assert.deepEqual(
      removed.filter((s) => s.binary === 'rd').map((s) => [s.host, s.live]),
      [['gone', false]],
    );
    const left = (await listServices(ctx.db(), live)).filter((s) => s.binary === 'rd');
    assert.deepEqual(
      left.map((s) => s.host),
      ['here'],
    );
  });

  test('bad versions and identities are refused before touching the table', async () => {
    for (const version of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(
        registerService(ctx.db(), { binary: 'x', host: 'h', version }),
        InvalidServiceVersionError,
      );
    }
    await assert.rejects(
      registerService(ctx.db(), { binary: '', host: 'h', version: 1 }),
      (e: unknown) => e instanceof InvalidServiceIdentityError && e.field === 'binary',
    );
  });
});
