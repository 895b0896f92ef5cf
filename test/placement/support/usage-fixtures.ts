/**
 * Rows written straight into the database for inventory and usage tests: providers,
 * consumers (with project, user and type) and their allocations, without going through
 * the provider and allocation endpoints.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../src/db/index.ts';
import type { PlacementTables } from '../../../src/placement/store/tables.ts';

type Db = Database<PlacementTables>;

export interface TestProvider {
  readonly id: number;
  readonly uuid: string;
}

/** A root provider at generation 0. */
export async function insertProvider(database: Db, name?: string): Promise<TestProvider> {
  const db = database.kysely;
  const uuid = randomUUID();
  await db
    .insertInto('resource_providers')
    .values({
      uuid,
      name: name ?? `rp-${uuid}`,
      generation: 0,
      root_provider_id: null,
      parent_provider_id: null,
      created_at: new Date(),
      updated_at: null,
    })
    .execute();
  const row = await db
    .selectFrom('resource_providers')
    .select('id')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await db
    .updateTable('resource_providers')
    .set({ root_provider_id: id })
    .where('id', '=', id)
    .execute();
  return { id, uuid };
}

async function idOf(
  database: Db,
  table: 'projects' | 'users',
  externalId: string,
): Promise<number> {
  const db = database.kysely;
  const found = await db
    .selectFrom(table)
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  if (found) return Number(found.id);
  await db
    .insertInto(table)
    .values({ external_id: externalId, created_at: new Date(), updated_at: null })
    .execute();
  return idOf(database, table, externalId);
}

async function consumerTypeId(database: Db, name: string): Promise<number> {
  const db = database.kysely;
  const found = await db
    .selectFrom('consumer_types')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (found) return Number(found.id);
  await db
    .insertInto('consumer_types')
    .values({ name, created_at: new Date(), updated_at: null })
    .execute();
  return consumerTypeId(database, name);
}

export async function resourceClassId(database: Db, name: string): Promise<number> {
  const row = await database.kysely
    .selectFrom('resource_classes')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface TestConsumer {
  readonly project: string;
  readonly user: string;
  /** Omitted: a consumer without a type. */
  readonly type?: string;
  /** provider id → class name → amount. */
  readonly allocations: ReadonlyArray<{
    readonly provider: TestProvider;
    readonly resources: Readonly<Record<string, number>>;
  }>;
}

/** A consumer and its allocations; returns the consumer's uuid. */
export async function insertConsumer(database: Db, consumer: TestConsumer): Promise<string> {
  const db = database.kysely;
  const uuid = randomUUID();
  await db
    .insertInto('consumers')
    .values({
      uuid,
      project_id: await idOf(database, 'projects', consumer.project),
      user_id: await idOf(database, 'users', consumer.user),
      generation: 0,
      consumer_type_id:
        consumer.type === undefined ? null : await consumerTypeId(database, consumer.type),
      created_at: new Date(),
      updated_at: null,
    })
    .execute();
  for (const { provider, resources } of consumer.allocations) {
    for (const [name, used] of Object.entries(resources)) {
      await db
        .insertInto('allocations')
        .values({
          resource_provider_id: provider.id,
          consumer_id: uuid,
          resource_class_id: await resourceClassId(database, name),
          used,
          created_at: new Date(),
          updated_at: null,
        })
        .execute();
    }
  }
  return uuid;
}
