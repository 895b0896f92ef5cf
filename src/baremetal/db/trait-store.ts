/**
 * A node's traits (Ironic's `*_node_trait(s)` db functions): set all at once, add one, remove
 * one, list. Rows are written at the Trait version of the caller's caps. At most 50 traits per
 * node (Placement's limit per resource provider, which Ironic copies).
 */
import type { Kysely } from 'kysely';
import { inRetriedTransaction } from '../../db/index.ts';
import { Trait, TraitList, type TraitListObject, type TraitObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import { isUniqueViolation } from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import { InvalidParameterError, NodeTraitNotFoundError, NotFoundError } from './errors.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import type { BaremetalTables, Row } from './tables.ts';

type Db = Kysely<BaremetalTables>;

export const MAX_TRAITS_PER_NODE = 50;

const COLUMNS = ['node_id', 'trait', 'created_at', 'updated_at', 'version'] as const;

async function checkNodeExists(db: Db, nodeId: number): Promise<void> {
  const node = await db
    .selectFrom('nodes')
    .select('id')
    .where('id', '=', nodeId)
    .executeTakeFirst();
  if (node === undefined) throw new NotFoundError('node', nodeId);
}

function checkCount(nodeId: number, count: number): void {
  if (count > MAX_TRAITS_PER_NODE) {
    throw new InvalidParameterError(
      `Could not modify traits for node ${nodeId} as it would exceed the maximum number of traits per node (${count} vs. ${MAX_TRAITS_PER_NODE})`,
      'traits',
    );
  }
}

function traitFromRow(row: Row): TraitObject {
  return objectFromRow(Trait, { ...row, node_id: String(row.node_id) });
}

/** The row of a new trait, at the target Trait version. */
function traitColumns(ctx: StoreContext, nodeId: number, trait: string): Row {
  const values = changesForDb(Trait.create({ node_id: String(nodeId), trait }), ctx.targets);
  return toColumns({ ...values, node_id: nodeId, created_at: ctx.now() });
}

async function rowsOf(db: Db, nodeId: number): Promise<Row[]> {
  return (await db
    .selectFrom('node_traits')
    .select(COLUMNS)
    .where('node_id', '=', nodeId)
    .orderBy('trait')
    .execute()) as Row[];
}

function listOf(rows: readonly Row[]): TraitListObject {
  return TraitList.create({ objects: rows.map(traitFromRow) }).resetChanges(undefined, {
    recursive: true,
  });
}

/** The node's traits, in name order. */
export async function getNodeTraits(ctx: StoreContext, nodeId: number): Promise<TraitListObject> {
  const db = ctx.database.kysely;
  await checkNodeExists(db, nodeId);
  return listOf(await rowsOf(db, nodeId));
}

/** Replaces all the node's traits (duplicates given once count once). */
export async function setNodeTraits(
  ctx: StoreContext,
  nodeId: number,
  traits: readonly string[],
): Promise<TraitListObject> {
  const unique = [...new Set(traits)];
  checkCount(nodeId, unique.length);
  const rows = await inRetriedTransaction(ctx.database, async (trx) => {
    await checkNodeExists(trx, nodeId);
    await trx.deleteFrom('node_traits').where('node_id', '=', nodeId).execute();
    if (unique.length > 0) {
      await trx
        .insertInto('node_traits')
        .values(unique.map((trait) => traitColumns(ctx, nodeId, trait)) as never)
        .execute();
    }
    return rowsOf(trx, nodeId);
  });
  return listOf(rows);
}

/** Removes all the node's traits. */
export async function unsetNodeTraits(ctx: StoreContext, nodeId: number): Promise<void> {
  await inRetriedTransaction(ctx.database, async (trx) => {
    await checkNodeExists(trx, nodeId);
    await trx.deleteFrom('node_traits').where('node_id', '=', nodeId).execute();
  });
}

/** Adds one trait; one the node already has is kept as it is. */
export async function addNodeTrait(
  ctx: StoreContext,
  nodeId: number,
  trait: string,
): Promise<TraitObject> {
  const find = (db: Db) =>
    db
      .selectFrom('node_traits')
      .select(COLUMNS)
      .where('node_id', '=', nodeId)
      .where('trait', '=', trait)
      .executeTakeFirst();
  try {
    const row = await inRetriedTransaction(ctx.database, async (trx) => {
      await checkNodeExists(trx, nodeId);
      const existing = await find(trx);
      if (existing !== undefined) return existing;
      await trx
        .insertInto('node_traits')
        .values(traitColumns(ctx, nodeId, trait) as never)
        .execute();
      const count = await trx
        .selectFrom('node_traits')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('node_id', '=', nodeId)
        .executeTakeFirstOrThrow();
      // Over the limit: the error rolls the insert back.
      checkCount(nodeId, Number(count.n));
      return find(trx);
    });
    return traitFromRow(row as Row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Added by another writer meanwhile: it is there, as asked.
    return traitFromRow((await find(ctx.database.kysely)) as Row);
  }
}

/** Removes one trait; one the node does not have is NodeTraitNotFound. */
export async function removeNodeTrait(
  ctx: StoreContext,
  nodeId: number,
  trait: string,
): Promise<void> {
  await inRetriedTransaction(ctx.database, async (trx) => {
    await checkNodeExists(trx, nodeId);
    const result = await trx
      .deleteFrom('node_traits')
      .where('node_id', '=', nodeId)
      .where('trait', '=', trait)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NodeTraitNotFoundError(nodeId, trait);
  });
}

export async function nodeTraitExists(
  ctx: StoreContext,
  nodeId: number,
  trait: string,
): Promise<boolean> {
  const db = ctx.database.kysely;
  await checkNodeExists(db, nodeId);
  const row = await db
    .selectFrom('node_traits')
    .select('trait')
    .where('node_id', '=', nodeId)
    .where('trait', '=', trait)
    .executeTakeFirst();
  return row !== undefined;
}
