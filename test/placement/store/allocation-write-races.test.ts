/**
 * Interleavings forced by holding a provider's row lock: a write waits for it while another
 * writer changes the same consumer and commits. The waiting write must then see the change
 * (409 with nothing written, or, without a stated generation, a write on the new record).
 * PostgreSQL reads the consumer before the lock (allocation-write-pg.ts), MariaDB after
 * (allocation-write-steps.ts); both must end in the same state. SQLite has one writer at a
 * time, so no write waits there for a row.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { sql } from 'kysely';
import { ConcurrentUpdateError, type Database } from '../../../src/db/index.ts';
import {
  ConsumerGenerationConflictError,
  type ConsumerWrite,
  writeAllocations,
} from '../../../src/placement/store/allocations.ts';
import { ensureOwner } from '../../../src/placement/store/projects-users.ts';
import type { PlacementTables } from '../../../src/placement/store/tables.ts';
import { consumerRecord, createProvider, usedOn } from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

type Db = Database<PlacementTables>;

/** Whether a session of this database is waiting for a row lock. */
async function someoneWaits(db: Db): Promise<boolean> {
  const query =
    db.caps.backend === 'postgresql'
      ? sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`
      : // MariaDB can block a locking read on a unique key while optimising it (state
        // 'Statistics'), before InnoDB lists it as a LOCK WAIT transaction; so any other
        // statement of this database running for 200 ms (none of these takes that long
        // unblocked) counts as waiting.
        sql<{ n: number | string }>`select count(*) as n from information_schema.processlist
          where db = database() and id <> connection_id() and command = 'Query'
            and time_ms > 200`;
  const { rows } = await query.execute(db.kysely);
  return Number(rows[0]?.n) > 0;
}

/** Waits until the write blocks on the lock; fails if it ended instead (or never blocked). */
async function untilSomeoneWaits(db: Db, write: Promise<unknown>): Promise<void> {
  let ended: { outcome: unknown } | undefined;
  write.then((outcome) => {
    ended = { outcome };
  });
  for (let i = 0; i < 3000; i++) {
    if (await someoneWaits(db)) return;
    if (ended !== undefined) {
      throw new Error(`the write ended without waiting for the lock: ${String(ended.outcome)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the write never waited for the lock');
}

/**
 * Runs `first` while the provider's row is locked, waits until it blocks on that lock, runs
 * `second` to completion, then releases the lock. Returns how `first` ended.
 */
async function interleave(
  db: Db,
  lockedProviderId: number,
  first: () => Promise<void>,
  second: () => Promise<void>,
): Promise<unknown> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = () => {};
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const holder = db.kysely.transaction().execute(async (trx) => {
    await trx
      .selectFrom('resource_providers')
      .select('id')
      .where('id', '=', lockedProviderId)
      .forUpdate()
      .execute();
    holding();
    await released;
  });
  await held;
  let outcome: Promise<unknown> = Promise.resolve();
  try {
    outcome = first().then(
      () => 'written',
      (error: unknown) => error,
    );
    await untilSomeoneWaits(db, outcome);
    await second();
  } finally {
    release();
    await holder;
  }
  return outcome;
}

forEachPlacementBackend('allocation writes interleaved with another writer', (ctx) => {
  let locked: { uuid: string; id: number };
  let free: { uuid: string; id: number };
  let classIds: Map<string, number>;
  before(async () => {
    const db = ctx.placementDb();
    locked = await createProvider(db, { VCPU: { total: 100 } });
    free = await createProvider(db, { VCPU: { total: 100 } });
    const vcpu = await db.kysely
      .selectFrom('resource_classes')
      .select('id')
      .where('name', '=', 'VCPU')
      .executeTakeFirstOrThrow();
    classIds = new Map([['VCPU', Number(vcpu.id)]]);
  });

  async function write(
    consumer: string,
    provider: string | undefined,
    used: number,
    generation?: number | null,
  ): Promise<ConsumerWrite> {
    return {
      consumerUuid: consumer,
      owner: await ensureOwner(ctx.placementDb(), {
        projectExternalId: 'race-p',
        userExternalId: 'race-u',
      }),
      expectedGeneration: generation === undefined ? undefined : { value: generation },
      allocations:
        provider === undefined ? [] : [{ providerUuid: provider, resources: [['VCPU', used]] }],
    };
  }

  const put = (w: ConsumerWrite) =>
    writeAllocations(ctx.placementDb(), [w], { order: 'put', classIds });

  const isConflict = (error: unknown) =>
    error instanceof ConcurrentUpdateError || error instanceof ConsumerGenerationConflictError;

  it('a generation moved while the write waited: 409, nothing of it written', async (t) => {
    if (ctx.placementDb().caps.singleWriter) return t.skip('one writer at a time');
    const db = ctx.placementDb();
    const consumer = uuid();
    await put(await write(consumer, free.uuid, 1, null));
    const outcome = await interleave(
      db,
      locked.id,
      async () => put(await write(consumer, locked.uuid, 7, 1)),
      async () => put(await write(consumer, free.uuid, 3, 1)),
    );
    assert.ok(isConflict(outcome), `the waiting write ended with ${String(outcome)}`);
    assert.deepEqual(
      (await usedOn(db, locked.id)).filter((a) => a.consumer === consumer),
      [],
    );
    assert.deepEqual(
      (await usedOn(db, free.id)).filter((a) => a.consumer === consumer).map((a) => a.used),
      [3],
    );
    assert.equal((await consumerRecord(db, consumer))?.generation, 2);
  });

  it('emptying a consumer whose generation moved meanwhile: 409, it keeps the other write', async (t) => {
    if (ctx.placementDb().caps.singleWriter) return t.skip('one writer at a time');
    const db = ctx.placementDb();
    const consumer = uuid();
    await put(await write(consumer, locked.uuid, 2, null));
    const outcome = await interleave(
      db,
      locked.id,
      async () => put(await write(consumer, undefined, 0, 1)),
      async () => put(await write(consumer, free.uuid, 5, 1)),
    );
    assert.ok(isConflict(outcome), `the waiting write ended with ${String(outcome)}`);
    assert.deepEqual(
      (await usedOn(db, free.id)).filter((a) => a.consumer === consumer).map((a) => a.used),
      [5],
    );
    assert.equal((await consumerRecord(db, consumer))?.generation, 2);
  });

  it('without a stated generation, a consumer created meanwhile is written on its record', async (t) => {
    if (ctx.placementDb().caps.singleWriter) return t.skip('one writer at a time');
    const db = ctx.placementDb();
    const consumer = uuid();
    const outcome = await interleave(
      db,
      locked.id,
      async () => put(await write(consumer, locked.uuid, 4)),
      async () => put(await write(consumer, free.uuid, 6)),
    );
    assert.equal(outcome, 'written');
    assert.deepEqual(
      (await usedOn(db, locked.id)).filter((a) => a.consumer === consumer).map((a) => a.used),
      [4],
    );
    assert.deepEqual(
      (await usedOn(db, free.id)).filter((a) => a.consumer === consumer),
      [],
    );
    assert.equal((await consumerRecord(db, consumer))?.generation, 2);
  });
});
