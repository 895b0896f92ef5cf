/**
 * The allocation write on PostgreSQL in two statements inside its transaction (four round
 * trips with BEGIN and COMMIT, where one statement per step takes seven):
 *
 * 1. Lock: bumps the generations of the providers the write touches (locking their rows in
 *    id order, so writers sharing a provider queue instead of failing), and reads the
 *    consumers and what the emptied consumers hold now.
 * 2. Write: once the checks that need only that have passed, one writable CTE replaces the
 *    allocation rows, creates, bumps or deletes the consumer records (each at the generation
 *    read, so a concurrent writer shows as a missing row), and reads the inventories with
 *    what other consumers use of them. Its snapshot is taken after the lock, so that usage
 *    cannot change before commit; the capacity check runs on it and a refusal rolls the
 *    transaction back, with nothing written.
 *
 * The checks and their order are allocation-rules.ts', as on the other path.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { ConcurrentUpdateError } from '../../db/index.ts';
import {
  type ConsumerWrite,
  checkCapacity,
  checkConsumerGeneration,
  checkProvidersExist,
  classIdsNamed,
  type InventoryRow,
  inventoryKey,
  inventoryRow,
  ownerAfter,
  type PlannedAllocation,
  type ProviderRef,
  planAllocations,
  providersNamed,
  type WriteOptions,
} from './allocation-rules.ts';
import { type ConsumerRow, consumerRow } from './consumers.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

/**
 * A consumer this write took for new was created by another writer meanwhile; the caller
 * gave no generation (before 1.28), so running the write again, on the record, is right.
 */
export class ConsumerCreatedMeanwhileError extends ConcurrentUpdateError {
  override name = 'ConsumerCreatedMeanwhileError';
}

/** `a, b, c` as parameters, or `null` for none (`x in (null)` matches nothing). */
function list(values: readonly unknown[]): RawBuilder<unknown> {
  return values.length === 0 ? sql`null` : sql.join(values);
}

interface Locked {
  readonly providers: Map<string, ProviderRef>;
  /** What the emptied consumers hold now: (consumer, provider) pairs. */
  readonly removed: readonly { consumerUuid: string; providerUuid: string }[];
  readonly consumers: Map<string, ConsumerRow>;
}

interface LockRow {
  kind: 'provider' | 'held' | 'consumer';
  key: string;
  id: number;
  generation: number | null;
  project_id: number | null;
  user_id: number | null;
  consumer_type_id: number | null;
  provider_uuid: string | null;
}

/** Statement 1: lock and bump the providers; read the consumers and the emptied ones' holdings. */
async function lockAndRead(
  trx: Db,
  providerUuids: readonly string[],
  emptied: readonly string[],
  consumerUuids: readonly string[],
  now: Date,
): Promise<Locked> {
  const { rows } = await sql<LockRow>`
    with held as (
      select a.consumer_id, rp.id as provider_id, rp.uuid as provider_uuid
      from allocations a join resource_providers rp on rp.id = a.resource_provider_id
      where a.consumer_id in (${list(emptied)})
    ),
    locked as (
      update resource_providers set generation = generation + 1, updated_at = ${now}
      where id in (
        select id from resource_providers
        where uuid in (${list(providerUuids)}) or id in (select provider_id from held)
        order by id for update
      )
      returning id, uuid, generation
    )
    select 'provider' as kind, uuid as key, id, generation, null::integer as project_id,
      null::integer as user_id, null::integer as consumer_type_id, null::text as provider_uuid
    from locked
    union all
    select 'held', consumer_id, provider_id, null, null, null, null, provider_uuid from held
    union all
    select 'consumer', uuid, id, generation, project_id, user_id, consumer_type_id, null
    from consumers where uuid in (${list(consumerUuids)})
  `.execute(trx);
  const locked: Locked = { providers: new Map(), removed: [], consumers: new Map() };
  for (const row of rows) {
    if (row.kind === 'provider') {
      locked.providers.set(row.key, {
        id: Number(row.id),
        uuid: row.key,
        generation: Number(row.generation),
      });
    } else if (row.kind === 'held') {
      (locked.removed as { consumerUuid: string; providerUuid: string }[]).push({
        consumerUuid: row.key,
        providerUuid: row.provider_uuid as string,
      });
    } else {
      locked.consumers.set(row.key, consumerRow({ ...row, uuid: row.key }));
    }
  }
  return locked;
}

/** What statement 2 does to consumer records. */
interface ConsumerChanges {
  /** New records (the writes they come from, for their stated generations). */
  readonly inserts: { write: ConsumerWrite; generation: number }[];
  /** Existing records: owner and type set; generation moved (bump 1) or not (0). */
  readonly updates: {
    consumer: ConsumerRow;
    bump: 0 | 1;
    owner: ReturnType<typeof ownerAfter>;
  }[];
  /** Existing records left holding nothing, deleted at the generation read. */
  readonly deletes: ConsumerRow[];
}

/**
 * What the write does to each consumer record, as the step-by-step path does it: a touched
 * consumer moves to a new generation, or is deleted when left holding nothing; an untouched
 * one only takes the new owner and type. A new consumer emptied of allocations it held
 * without a record is not created (the other path creates and deletes it).
 */
function consumerChanges(
  writes: readonly ConsumerWrite[],
  consumers: ReadonlyMap<string, ConsumerRow>,
  planned: readonly PlannedAllocation[],
  removed: Locked['removed'],
): ConsumerChanges {
  const holding = new Set(planned.map((a) => a.consumerUuid));
  const visited = new Set([...holding, ...removed.map((r) => r.consumerUuid)]);
  const changes: ConsumerChanges = { inserts: [], updates: [], deletes: [] };
  for (const write of writes) {
    const uuid = write.consumerUuid;
    const consumer = consumers.get(uuid);
    if (consumer === undefined) {
      if (visited.has(uuid) && !holding.has(uuid)) continue;
      changes.inserts.push({ write, generation: write.allocations.length > 0 ? 1 : 0 });
      continue;
    }
    const owner = ownerAfter(write, consumer);
    if (!visited.has(uuid)) {
      if (owner.changed) changes.updates.push({ consumer, bump: 0, owner });
    } else if (holding.has(uuid)) {
      changes.updates.push({ consumer, bump: 1, owner });
    } else {
      changes.deletes.push(consumer);
    }
  }
  return changes;
}

interface WriteRow {
  created: number | string;
  bumped: number | string;
  dropped: number | string;
  resource_provider_id: number | null;
  resource_class_id: number | null;
  total: number | null;
  reserved: number | null;
  min_unit: number | null;
  max_unit: number | null;
  step_size: number | null;
  allocation_ratio: number | null;
  used: number | string | null;
}

/** Statement 2: every write, and the inventories with other consumers' usage (pre-write). */
async function writeAndReadInventories(
  trx: Db,
  consumerUuids: readonly string[],
  planned: readonly PlannedAllocation[],
  changes: ConsumerChanges,
  inventoryOf: { providerIds: readonly number[]; classIds: readonly number[] },
  now: Date,
) {
  const ctes: RawBuilder<unknown>[] = [
    sql`cleared as (delete from allocations where consumer_id in (${list(consumerUuids)}))`,
  ];
  if (planned.length > 0) {
    const rows = planned.map(
      (a) => sql`(${a.provider.id}, ${a.consumerUuid}, ${a.classId}, ${a.used}, ${now}, null)`,
    );
    ctes.push(sql`added as (insert into allocations
      (resource_provider_id, consumer_id, resource_class_id, used, created_at, updated_at)
      values ${sql.join(rows)})`);
  }
  const { inserts, updates, deletes } = changes;
  if (inserts.length > 0) {
    const rows = inserts.map(
      ({ write, generation }) =>
        sql`(${write.consumerUuid}, ${write.owner.projectId}, ${write.owner.userId},
          ${generation}, ${write.consumerTypeId ?? null}::integer, ${now}, ${now})`,
    );
    ctes.push(sql`created as (insert into consumers
      (uuid, project_id, user_id, generation, consumer_type_id, created_at, updated_at)
      values ${sql.join(rows)} on conflict (uuid) do nothing returning 1 as one)`);
  }
  if (updates.length > 0) {
    const rows = updates.map(
      ({ consumer, bump, owner }) =>
        sql`(${consumer.id}::integer, ${consumer.generation}::integer, ${bump}::integer,
          ${owner.projectId}::integer, ${owner.userId}::integer, ${owner.consumerTypeId}::integer)`,
    );
    ctes.push(sql`changed as (update consumers c set generation = c.generation + v.bump,
        project_id = v.project_id, user_id = v.user_id, consumer_type_id = v.consumer_type_id,
        updated_at = ${now}
      from (values ${sql.join(rows)})
        as v(id, generation, bump, project_id, user_id, consumer_type_id)
      where c.id = v.id and c.generation = v.generation
      returning v.bump)`);
  }
  if (deletes.length > 0) {
    const pairs = deletes.map((c) => sql`(${c.id}::integer, ${c.generation}::integer)`);
    ctes.push(sql`dropped as (delete from consumers
      where (id, generation) in (${sql.join(pairs)}) returning 1 as one)`);
  }
  const { providerIds, classIds } = inventoryOf;
  const { rows } = await sql<WriteRow>`
    with ${sql.join(ctes)}
    select
      ${inserts.length > 0 ? sql`(select count(*) from created)` : sql`0`} as created,
      ${updates.length > 0 ? sql`(select count(*) from changed where bump = 1)` : sql`0`} as bumped,
      ${deletes.length > 0 ? sql`(select count(*) from dropped)` : sql`0`} as dropped,
      inv.resource_provider_id, inv.resource_class_id, inv.total, inv.reserved, inv.min_unit,
      inv.max_unit, inv.step_size, inv.allocation_ratio,
      (select sum(a.used) from allocations a
        where a.resource_provider_id = inv.resource_provider_id
          and a.resource_class_id = inv.resource_class_id
          and a.consumer_id not in (${list(consumerUuids)})) as used
    from (select 1) as one
    left join inventories inv on inv.resource_provider_id in (${list(providerIds)})
      and inv.resource_class_id in (${list(classIds)})
  `.execute(trx);
  const first = rows[0] as WriteRow;
  const inventories = new Map<string, InventoryRow>();
  for (const row of rows) {
    if (row.resource_provider_id === null) continue;
    inventories.set(
      inventoryKey(Number(row.resource_provider_id), Number(row.resource_class_id)),
      inventoryRow(row),
    );
  }
  return {
    created: Number(first.created),
    bumped: Number(first.bumped),
    dropped: Number(first.dropped),
    inventories,
  };
}

/**
 * Replaces the allocations of every consumer in `writes` inside the caller's transaction, in
 * two statements. Throws allocation-rules.ts' errors, ConcurrentUpdateError, or
 * ConsumerCreatedMeanwhileError (worth running again).
 */
export async function writeInTwoStatements(
  trx: Db,
  writes: readonly ConsumerWrite[],
  options: WriteOptions,
): Promise<void> {
  if (writes.length === 0) return;
  const consumerUuids = writes.map((w) => w.consumerUuid);
  const providerUuids = providersNamed(writes);
  const emptied = writes.filter((w) => w.allocations.length === 0).map((w) => w.consumerUuid);
  const now = new Date();
  const { providers, removed, consumers } = await lockAndRead(
    trx,
    providerUuids,
    emptied,
    consumerUuids,
    now,
  );

  if (options.order === 'put') checkProvidersExist(providerUuids, providers);
  for (const write of writes) checkConsumerGeneration(write, consumers.get(write.consumerUuid));
  if (options.order === 'post') checkProvidersExist(providerUuids, providers);
  const planned = planAllocations(writes, providers, options.classIds);
  const changes = consumerChanges(writes, consumers, planned, removed);

  const done = await writeAndReadInventories(
    trx,
    consumerUuids,
    planned,
    changes,
    {
      providerIds: providerUuids.flatMap((uuid) => providers.get(uuid)?.id ?? []),
      classIds: classIdsNamed(writes, options.classIds),
    },
    now,
  );
  if (done.created !== changes.inserts.length) {
    // Another writer created one of them since statement 1 read: with a generation stated,
    // that is a conflict; without, the write runs again on the record.
    const stated = changes.inserts.find((i) => i.write.expectedGeneration !== undefined);
    if (stated !== undefined) {
      throw new ConcurrentUpdateError('consumers', stated.write.consumerUuid, 0);
    }
    throw new ConsumerCreatedMeanwhileError('consumers', changes.inserts[0]?.write.consumerUuid, 0);
  }
  checkCapacity(planned, done.inventories, options.classIds);
  const bumps = changes.updates.filter((u) => u.bump === 1);
  if (done.bumped !== bumps.length || done.dropped !== changes.deletes.length) {
    // Moved or deleted by another writer since statement 1 read it.
    const first = bumps[0]?.consumer ?? changes.deletes[0];
    throw new ConcurrentUpdateError('consumers', first?.id, first?.generation ?? -1);
  }
}
