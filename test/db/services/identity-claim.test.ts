/**
 * Claiming a process's identity (binary, host) before anything else, on the three backends: a
 * live holder refuses the claim and is named, a stopping one is waited for (bounded), a dead
 * one (its pid gone on this machine, or its heartbeat too old) is taken over; of two claims at
 * once exactly one wins; a holder whose identity was taken over no longer refreshes or removes
 * the row.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  IdentityInUseError,
  listServices,
  registerService,
} from '../../../src/db/services/index.ts';
import { forEachBackend } from '../support/backends.ts';

forEachBackend('claiming a process identity', (ctx) => {
  const alive = new Set<number>();
  const claimAs = (host: string, pid: number, claim: object = {}) =>
    registerService(ctx.db(), {
      binary: 'conductor',
      host,
      version: 2,
      process: { pid, machine: 'm1', address: `http://m1:${pid}` },
      claim: { pidAlive: (p: number) => alive.has(p), ...claim },
    });
  const rowOf = async (host: string) =>
    (await listServices(ctx.db())).find((s) => s.binary === 'conductor' && s.host === host);

  test('a live holder refuses the claim, named with its pid, machine, address and start', async () => {
    alive.add(101);
    const first = await claimAs('c1', 101);
    const before = await rowOf('c1');
    await assert.rejects(claimAs('c1', 102), (error: Error) => {
      assert.ok(error instanceof IdentityInUseError);
      assert.match(
        error.message,
        /^conductor c1 is already running: pid 101, on m1, serving http:\/\/m1:101, since .*Stop it first, or give this process another \[DEFAULT\] host\.$/,
      );
      return true;
    });
    // Nothing changed: the holder's row is as it was.
    assert.deepEqual(await rowOf('c1'), before);
    assert.equal(before?.state, 'starting');
    await first.deregister();
  });

  test('a holder whose pid is gone on this machine is taken over', async () => {
    alive.add(201);
    const crashed = await claimAs('c2', 201);
    alive.delete(201);
    const next = await claimAs('c2', 202);
    assert.equal(next.id, crashed.id);
    assert.equal((await rowOf('c2'))?.pid, 202);
    // The crashed one's heartbeat and stop leave the new holder's row alone.
    await crashed.heartbeat();
    await crashed.deregister();
    assert.equal((await rowOf('c2'))?.pid, 202);
    await next.deregister();
    assert.equal(await rowOf('c2'), undefined);
  });

  test('a stopping holder is waited for, within the bound, then the claim goes through', async () => {
    alive.add(301);
    const old = await claimAs('c3', 301);
    await old.setState('stopping');
    const waitedFor: string[] = [];
    const claiming = claimAs('c3', 302, {
      waitForStoppingMs: 20_000,
      onWait: (holder: { pid?: number; state?: string }) =>
        waitedFor.push(`${holder.pid} ${holder.state}`),
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await old.deregister();
    const next = await claiming;
    assert.deepEqual(waitedFor, ['301 stopping']);
    assert.equal((await rowOf('c3'))?.pid, 302);
    await next.deregister();
  });

  test('a stopping holder that does not leave within the bound refuses the claim, saying so', async () => {
    alive.add(401);
    const old = await claimAs('c4', 401);
    await old.setState('stopping');
    await assert.rejects(
      claimAs('c4', 402, { waitForStoppingMs: 700 }),
      /conductor c4 is already running: pid 401.*\(waited 1 s for it to finish stopping\)/,
    );
    await old.deregister();
  });

  test('of two claims at once, exactly one wins', async () => {
    alive.add(501).add(502);
    const outcomes = await Promise.allSettled([claimAs('c5', 501), claimAs('c5', 502)]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    assert.equal(won.length, 1);
    assert.ok(lost[0]?.status === 'rejected' && lost[0].reason instanceof IdentityInUseError);
    await (won[0] as PromiseFulfilledResult<{ deregister(): Promise<void> }>).value.deregister();
  });

  test('a holder silent past the liveness window is taken over, wherever it ran', async () => {
    let now = 1_700_000_000_000;
    const clock = () => now;
    const gone = await registerService(ctx.db(), {
      binary: 'conductor',
      host: 'c6',
      version: 2,
      clock,
      process: { pid: 601, machine: 'another-machine' },
      claim: { clock, liveWithinSeconds: 60 },
    });
    now += 61_000;
    const next = await registerService(ctx.db(), {
      binary: 'conductor',
      host: 'c6',
      version: 2,
      clock,
      process: { pid: 602, machine: 'm1' },
      claim: { clock, liveWithinSeconds: 60 },
    });
    assert.equal(next.id, gone.id);
    await next.deregister();
  });
});
