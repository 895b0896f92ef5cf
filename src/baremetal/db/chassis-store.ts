/**
 * Chassis (Ironic's `*_chassis` db functions): written by the API process itself. A chassis
 * that still has nodes cannot be destroyed.
 */
import { randomUUID } from 'node:crypto';
import { inRetriedTransaction } from '../../db/index.ts';
import { Chassis, type ChassisObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import { isForeignKeyViolation, isUniqueViolation } from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import { duplicateOf, InvalidParameterError, NotEmptyError, NotFoundError } from './errors.ts';
import { type Identity, identityOf } from './identity.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import type { Row } from './tables.ts';

const COLUMNS = [...Chassis.fieldNames, 'version'] as const;

function where(identity: Identity): ['id' | 'uuid', number | string] {
  return 'id' in identity ? ['id', identity.id] : ['uuid', identity.uuid];
}

async function getWhere(ctx: StoreContext, identity: Identity, ident: string | number) {
  const [column, value] = where(identity);
  const row = await ctx.database.kysely
    .selectFrom('chassis')
    .select(COLUMNS as never)
    .where(column, '=', value as never)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('chassis', ident);
  return objectFromRow(Chassis, row as Row);
}

/** By integer id or UUID (Ironic's Chassis.get). */
export async function getChassis(
  ctx: StoreContext,
  ident: string | number,
): Promise<ChassisObject> {
  return getWhere(ctx, identityOf(ident), ident);
}

export async function listChassis(
  ctx: StoreContext,
  page: PageOptions = {},
): Promise<ChassisObject[]> {
  checkPageOptions('chassis', page);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, 'chassis', 'chassis', page);
  const rows = await applyPage(
    db.selectFrom('chassis').select(COLUMNS as never),
    'chassis',
    page,
    marker,
  ).execute();
  return rows.map((row) => objectFromRow(Chassis, row as Row));
}

export async function createChassis(
  ctx: StoreContext,
  chassis: ChassisObject,
): Promise<ChassisObject> {
  const values = changesForDb(chassis, ctx.targets);
  if (values.uuid === undefined || values.uuid === null) values.uuid = randomUUID();
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  const uuid = String(values.uuid);
  try {
    await ctx.database.kysely
      .insertInto('chassis')
      .values(toColumns(values) as never)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateOf('chassis', 'uuid', uuid);
    throw error;
  }
  return getWhere(ctx, { uuid }, uuid);
}

/** Writes the chassis' changed fields; returns it as now stored. */
export async function saveChassis(
  ctx: StoreContext,
  chassis: ChassisObject,
): Promise<ChassisObject> {
  const uuid = chassis.get('uuid');
  if (uuid === null)
    throw new InvalidParameterError('A chassis without a UUID cannot be saved', 'uuid');
  const values = changesForDb(chassis, ctx.targets);
  if ('uuid' in values)
    throw new InvalidParameterError('Cannot overwrite UUID for an existing Chassis.', 'uuid');
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  const result = await ctx.database.kysely
    .updateTable('chassis')
    .set(toColumns(values) as never)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new NotFoundError('chassis', uuid);
  return getWhere(ctx, { uuid }, uuid);
}

/** Removes a chassis (by id or uuid); one with nodes is ChassisNotEmpty. */
export async function destroyChassis(ctx: StoreContext, ident: string | number): Promise<void> {
  const [column, value] = where(identityOf(ident));
  try {
    await inRetriedTransaction(ctx.database, async (trx) => {
      const row = await trx
        .selectFrom('chassis')
        .select('id')
        .where(column, '=', value as never)
        .executeTakeFirst();
      if (row === undefined) throw new NotFoundError('chassis', ident);
      const nodes = await trx
        .selectFrom('nodes')
        .select('id')
        .where('chassis_id', '=', Number(row.id))
        .limit(1)
        .executeTakeFirst();
      if (nodes !== undefined) throw new NotEmptyError('chassis', ident);
      await trx.deleteFrom('chassis').where('id', '=', Number(row.id)).execute();
    });
  } catch (error) {
    // A node added to it meanwhile.
    if (isForeignKeyViolation(error)) throw new NotEmptyError('chassis', ident);
    throw error;
  }
}
