/**
 * `move_inventory_to_node_inventory` (antelope): a node's inspection inventory moves out of
 * its `extra` into the `node_inventory` table, where API 1.81 serves it.
 *
 * Before antelope there was no place for an inventory: deployments that kept one with the
 * node (an out-of-band inspector's result) could only write it into `extra`. Baton's
 * antelope takes `extra.inventory` (and `extra.plugin_data` beside it) as that old place
 * (docs/releases.md: a decision, not Ironic's history). Per node, in the batch's transaction:
 * `extra` without the two keys is written only if it is still the text read (a service saving
 * the node meanwhile wins; the next batch sees it again), then the inventory row is inserted
 * unless the node already has one (a newer inspection's, which wins).
 *
 * It waits until every API and conductor runs antelope (service version 2): a zed conductor
 * does not know `node_inventory` and would fail to delete a node that has a row there (its
 * foreign key), and a zed API would show the node's `extra` without the inventory and cannot
 * serve it elsewhere.
 *
 * The rows still to move are found through a LIKE on the JSON text, then checked parsed:
 * `"inventory"` may also appear deeper in `extra`, so candidates are paged by id within a
 * batch until `maxCount` nodes that need moving are found.
 */
import type { Kysely } from 'kysely';
import {
  type MigrationCount,
  type OnlineMigration,
  type OnlineMigrationContext,
  totalAfterBatch,
} from '../../db/index.ts';
import type { Blocker } from '../../db/migrations/index.ts';
import { NodeInventory } from '../objects/index.ts';
import {
  BAREMETAL_API_BINARY,
  BAREMETAL_CONDUCTOR_BINARY,
  SERVICE_VERSION_OF_RELEASE,
} from '../service-version.ts';

export const MOVE_INVENTORY = 'move_inventory_to_node_inventory';

/** The keys of `extra` that held an inventory before antelope. */
export const OLD_INVENTORY_KEY = 'inventory';
export const OLD_PLUGIN_DATA_KEY = 'plugin_data';

const CANDIDATE_PAGE = 500;

const asDict = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The inventory a node's `extra` holds in the old place, as the move will store it. */
export function inventoryHeldInExtra(
  extra: Readonly<Record<string, unknown>> | null,
): { inventory: Record<string, unknown>; plugin_data: Record<string, unknown> } | undefined {
  if (extra === null || !Object.hasOwn(extra, OLD_INVENTORY_KEY)) return undefined;
  return {
    inventory: asDict(extra[OLD_INVENTORY_KEY]),
    plugin_data: asDict(extra[OLD_PLUGIN_DATA_KEY]),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the bare metal tables, named at run time
type Db = Kysely<any>;

interface Candidate {
  readonly id: number;
  readonly extra: string;
}

function heldInventory(extra: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(extra);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  return Object.hasOwn(parsed, OLD_INVENTORY_KEY) ? (parsed as Record<string, unknown>) : undefined;
}

/** Nodes after `afterId` whose extra text mentions the key, by id. */
function candidates(db: Db, afterId: number, limit: number): Promise<Candidate[]> {
  return db
    .selectFrom('nodes')
    .select(['id', 'extra'])
    .where('extra', 'like', `%"${OLD_INVENTORY_KEY}"%`)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute() as Promise<Candidate[]>;
}

/** How many nodes still hold an inventory in `extra`. */
export async function nodesHoldingInventory(db: Db): Promise<number> {
  let count = 0;
  let after = 0;
  for (;;) {
    const page = await candidates(db, after, CANDIDATE_PAGE);
    for (const row of page) if (heldInventory(String(row.extra)) !== undefined) count++;
    if (page.length < CANDIDATE_PAGE) return count;
    after = Number(page.at(-1)?.id);
  }
}

async function moveOne(db: Db, row: Candidate, extra: Record<string, unknown>): Promise<boolean> {
  const { [OLD_INVENTORY_KEY]: inventory, [OLD_PLUGIN_DATA_KEY]: pluginData, ...rest } = extra;
  const updated = await db
    .updateTable('nodes')
    .set({ extra: JSON.stringify(rest) })
    .where('id', '=', row.id)
    .where('extra', '=', row.extra)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  const existing = await db
    .selectFrom('node_inventory')
    .select('id')
    .where('node_id', '=', row.id)
    .executeTakeFirst();
  if (existing === undefined) {
    await db
      .insertInto('node_inventory')
      .values({
        node_id: row.id,
        inventory_data: JSON.stringify(asDict(inventory)),
        plugin_data: JSON.stringify(asDict(pluginData)),
        version: NodeInventory.version,
        created_at: new Date(),
      })
      .execute();
  }
  return true;
}

async function run(ctx: OnlineMigrationContext, maxCount: number): Promise<MigrationCount> {
  const db = ctx.db as Db;
  const counted = ctx.remainingEstimate === undefined ? await nodesHoldingInventory(db) : undefined;
  let migrated = 0;
  let after = 0;
  while (migrated < maxCount) {
    const page = await candidates(db, after, CANDIDATE_PAGE);
    for (const row of page) {
      if (migrated >= maxCount) break;
      const extra = heldInventory(String(row.extra));
      if (extra !== undefined && (await moveOne(db, row, extra))) migrated++;
    }
    if (page.length < CANDIDATE_PAGE) break;
    after = Number(page.at(-1)?.id);
  }
  const total = counted ?? totalAfterBatch(ctx.remainingEstimate ?? migrated, maxCount, migrated);
  return { total: Math.max(total, migrated), migrated };
}

export const moveInventoryToNodeInventory: OnlineMigration = {
  name: MOVE_INVENTORY,
  description: "Move each node's inspection inventory from extra into node_inventory (API 1.81)",
  requires: [
    { binary: BAREMETAL_API_BINARY, minServiceVersion: SERVICE_VERSION_OF_RELEASE.antelope },
    { binary: BAREMETAL_CONDUCTOR_BINARY, minServiceVersion: SERVICE_VERSION_OF_RELEASE.antelope },
  ],
  run,
};

/**
 * What a later release's contract step waits on (a schema migration's `blockedBy`): no node
 * may still hold an inventory in `extra`. The release after antelope may then stop reading
 * the old place and constrain `node_inventory` to one row per node (docs/releases.md).
 */
export const INVENTORY_MOVED: Blocker = {
  onlineMigration: MOVE_INVENTORY,
  remaining: (db) => nodesHoldingInventory(db),
};
