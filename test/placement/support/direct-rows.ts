/**
 * Test shortcuts that bypass the API: provider and inventory rows written straight into the
 * suite's database (for endpoints whose tests need them before their own routes exist), and a
 * policy that refuses one named rule.
 */
import type { Credentials, PolicyEnforcer } from '../../../src/policy/index.ts';
import { type PlacementContext, uuid as randomUuid } from './placement-api.ts';

/** Inserts a root provider (generation 0) and returns its uuid and internal id. */
export async function insertProvider(
  ctx: PlacementContext,
  uuid: string = randomUuid(),
): Promise<{ uuid: string; id: number }> {
  const db = ctx.placementDb().kysely;
  await db
    .insertInto('resource_providers')
    .values({
      uuid,
      name: `rp-${uuid}`,
      generation: 0,
      root_provider_id: null,
      parent_provider_id: null,
      created_at: new Date(),
      updated_at: null,
    })
    .execute();
  const { id } = await db
    .selectFrom('resource_providers')
    .select('id')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('resource_providers')
    .set({ root_provider_id: Number(id) })
    .where('id', '=', Number(id))
    .execute();
  return { uuid, id: Number(id) };
}

/** Gives a provider an inventory of the class with this id. */
export async function insertInventory(
  ctx: PlacementContext,
  providerId: number,
  resourceClassId: number,
): Promise<void> {
  await ctx
    .placementDb()
    .kysely.insertInto('inventories')
    .values({
      resource_provider_id: providerId,
      resource_class_id: resourceClassId,
      total: 8,
      reserved: 0,
      min_unit: 1,
      max_unit: 8,
      step_size: 1,
      allocation_ratio: 1,
      created_at: new Date(),
      updated_at: null,
    })
    .execute();
}

/** Runs `work` while the app's policy refuses `rule` (and only it). */
export async function withRuleDenied<T>(
  ctx: PlacementContext,
  rule: string,
  work: () => Promise<T>,
): Promise<T> {
  const policy = ctx.api().app.placement.policy as { enforce: PolicyEnforcer['enforce'] };
  const original = policy.enforce;
  policy.enforce = (asked: string, credentials: Credentials, target) =>
    asked === rule ? false : original.call(policy, asked, credentials, target);
  try {
    return await work();
  } finally {
    policy.enforce = original;
  }
}
