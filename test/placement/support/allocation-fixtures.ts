/**
 * Providers, inventories and raw allocation rows written straight into a Placement database,
 * so allocation tests do not depend on the provider and inventory endpoints.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../src/db/index.ts';
import type { PlacementTables } from '../../../src/placement/store/tables.ts';

export interface InventorySpec {
  readonly total: number;
  readonly reserved?: number;
  readonly min_unit?: number;
  readonly max_unit?: number;
  readonly step_size?: number;
  readonly allocation_ratio?: number;
}

async function classId(db: Database<PlacementTables>, name: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('resource_classes')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A root provider with the given inventories; returns its uuid and id. */
export async function createProvider(
  db: Database<PlacementTables>,
  inventories: Readonly<Record<string, InventorySpec>> = {},
  name = `rp-${randomUUID()}`,
): Promise<{ uuid: string; id: number }> {
  const uuid = randomUUID();
  const now = new Date();
  await db.kysely
    .insertInto('resource_providers')
    .values({
      uuid,
      name,
      generation: 0,
      root_provider_id: null,
      parent_provider_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const row = await db.kysely
    .selectFrom('resource_providers')
    .select('id')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await db.kysely
    .updateTable('resource_providers')
    .set({ root_provider_id: id })
    .where('id', '=', id)
    .execute();
  for (const [rc, spec] of Object.entries(inventories)) {
    await db.kysely
      .insertInto('inventories')
      .values({
        resource_provider_id: id,
        resource_class_id: await classId(db, rc),
        total: spec.total,
        reserved: spec.reserved ?? 0,
        min_unit: spec.min_unit ?? 1,
        max_unit: spec.max_unit ?? spec.total,
        step_size: spec.step_size ?? 1,
        allocation_ratio: spec.allocation_ratio ?? 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return { uuid, id };
}

/** Allocation rows without a consumer record, as microversions < 1.8 once wrote them. */
export async function insertBareAllocations(
  db: Database<PlacementTables>,
  consumerUuid: string,
  providerId: number,
  resources: Readonly<Record<string, number>>,
): Promise<void> {
  for (const [rc, used] of Object.entries(resources)) {
    await db.kysely
      .insertInto('allocations')
      .values({
        resource_provider_id: providerId,
        consumer_id: consumerUuid,
        resource_class_id: await classId(db, rc),
        used,
        created_at: new Date(),
        updated_at: null,
      })
      .execute();
  }
}

export async function consumerRecord(db: Database<PlacementTables>, consumerUuid: string) {
  const row = await db.kysely
    .selectFrom('consumers as c')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.generation', 'p.external_id as project', 'u.external_id as user'])
    .where('c.uuid', '=', consumerUuid)
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : { generation: Number(row.generation), project: row.project, user: row.user };
}

export async function providerGeneration(db: Database<PlacementTables>, id: number) {
  const row = await db.kysely
    .selectFrom('resource_providers')
    .select('generation')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.generation);
}

/** Sum of `used` per class on a provider, straight from the table. */
export async function usedOn(db: Database<PlacementTables>, providerId: number) {
  const rows = await db.kysely
    .selectFrom('allocations')
    .select(['resource_class_id', 'used', 'consumer_id'])
    .where('resource_provider_id', '=', providerId)
    .execute();
  return rows.map((r) => ({
    classId: Number(r.resource_class_id),
    used: Number(r.used),
    consumer: r.consumer_id,
  }));
}
