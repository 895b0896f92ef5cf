/**
 * Portgroups (Ironic's `*_portgroup` db functions): written by the API process itself. Address
 * and name are unique; a portgroup created without a mode gets the configured default; one
 * that still has ports cannot be destroyed.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inRetriedTransaction } from '../../db/index.ts';
import { Portgroup, type PortgroupObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  violatedUniqueColumn,
} from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import {
  duplicateOf,
  InvalidIdentityError,
  InvalidParameterError,
  NotEmptyError,
  NotFoundError,
} from './errors.ts';
import { isIntLike, isUuidLike, isValidMac, normalizeMac } from './identity.ts';
import { changesForDb, NODE_UUID_FIELD, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import type { BaremetalTables, Row } from './tables.ts';

type Db = Kysely<BaremetalTables>;
type Lookup = { column: 'id' | 'uuid' | 'address' | 'name'; value: string | number };

/** The portgroups columns; `node_uuid` is read from the port's node (NODE_UUID_FIELD). */
const COLUMNS = [...Portgroup.fieldNames.filter((name) => name !== NODE_UUID_FIELD), 'version'].map(
  (c) => `portgroups.${c}`,
);
/** Fields never written to portgroups: the node's uuid lives in nodes. */
const NOT_COLUMNS: ReadonlySet<string> = new Set([NODE_UUID_FIELD]);
const UNIQUE = {
  uniq_portgroups0uuid: 'uuid',
  uniq_portgroups0address: 'address',
  uniq_portgroups0name: 'name',
};
/** Ironic's logical names: RFC 3986 unreserved characters, at most 255. */
const LOGICAL_NAME = /^[A-Za-z0-9\-._~]{1,255}$/;

export interface PortgroupFilters {
  readonly node_id?: number;
  readonly address?: string;
  /** Portgroups of nodes this project owns or leases. */
  readonly project?: string;
}

export interface PortgroupListOptions extends PageOptions {
  readonly filters?: PortgroupFilters;
}

function selectPortgroups(db: Db, filters: PortgroupFilters = {}) {
  let query = db
    .selectFrom('portgroups')
    .leftJoin('nodes as owning_node', 'owning_node.id', 'portgroups.node_id')
    .select([...COLUMNS, 'owning_node.uuid as node_uuid'] as never[]);
  if (filters.project !== undefined) {
    const project = filters.project;
    query = query
      .innerJoin('nodes', 'nodes.id', 'portgroups.node_id')
      .where((eb) =>
        eb.or([eb('nodes.owner', '=', project), eb('nodes.lessee', '=', project)]),
      ) as unknown as typeof query;
  }
  if (filters.node_id !== undefined)
    query = query.where('portgroups.node_id', '=', filters.node_id);
  if (filters.address !== undefined)
    query = query.where('portgroups.address', '=', normalizeMac(filters.address));
  return query;
}

async function getWhere(
  ctx: StoreContext,
  lookup: Lookup,
  filters: PortgroupFilters = {},
): Promise<PortgroupObject> {
  const row = await selectPortgroups(ctx.database.kysely, filters)
    .where(`portgroups.${lookup.column}` as never, '=', lookup.value as never)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('portgroup', lookup.value);
  return objectFromRow(Portgroup, row as Row);
}

/** Ironic's Portgroup.get: an integer id, a UUID, a MAC address or a logical name. */
function lookupOf(ident: string | number): Lookup {
  if (isIntLike(ident)) return { column: 'id', value: Number(ident) };
  if (isUuidLike(ident)) return { column: 'uuid', value: ident };
  if (isValidMac(ident)) return { column: 'address', value: normalizeMac(ident) };
  if (typeof ident === 'string' && LOGICAL_NAME.test(ident))
    return { column: 'name', value: ident };
  throw new InvalidIdentityError(String(ident));
}

export async function getPortgroup(
  ctx: StoreContext,
  ident: string | number,
): Promise<PortgroupObject> {
  return getWhere(ctx, lookupOf(ident));
}

export async function getPortgroupByAddress(
  ctx: StoreContext,
  address: string,
  scope: { readonly project?: string } = {},
): Promise<PortgroupObject> {
  return getWhere(ctx, { column: 'address', value: normalizeMac(address) }, scope);
}

export async function getPortgroupByName(
  ctx: StoreContext,
  name: string,
): Promise<PortgroupObject> {
  return getWhere(ctx, { column: 'name', value: name });
}

export async function listPortgroups(
  ctx: StoreContext,
  options: PortgroupListOptions = {},
): Promise<PortgroupObject[]> {
  checkPageOptions('portgroups', options);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, 'portgroups', 'portgroup', options);
  const query = selectPortgroups(db, options.filters);
  const rows = await applyPage(query, 'portgroups', options, marker).execute();
  return rows.map((row) => objectFromRow(Portgroup, row as Row));
}

async function writeError(db: Db, error: unknown, values: Row): Promise<never> {
  if (isUniqueViolation(error)) {
    const column = violatedUniqueColumn(error, 'portgroups', UNIQUE);
    if (column === 'name') throw duplicateOf('portgroup', 'name', String(values.name));
    if (column === 'address') throw duplicateOf('portgroup', 'address', String(values.address));
    throw duplicateOf('portgroup', 'uuid', String(values.uuid));
  }
  if (isForeignKeyViolation(error) && values.node_id !== undefined && values.node_id !== null) {
    const node = await db
      .selectFrom('nodes')
      .select('id')
      .where('id', '=', Number(values.node_id))
      .executeTakeFirst();
    if (node === undefined) throw new NotFoundError('node', Number(values.node_id));
  }
  throw error;
}

export async function createPortgroup(
  ctx: StoreContext,
  portgroup: PortgroupObject,
): Promise<PortgroupObject> {
  const values = changesForDb(portgroup, ctx.targets);
  if (values.uuid === undefined || values.uuid === null) values.uuid = randomUUID();
  if (values.mode === undefined || values.mode === null || values.mode === '')
    values.mode = ctx.defaultPortgroupMode;
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  const db = ctx.database.kysely;
  try {
    await db
      .insertInto('portgroups')
      .values(toColumns(values, NOT_COLUMNS) as never)
      .execute();
  } catch (error) {
    return writeError(db, error, values);
  }
  return getWhere(ctx, { column: 'uuid', value: String(values.uuid) });
}

/** Writes the portgroup's changed fields; returns it as now stored. */
export async function savePortgroup(
  ctx: StoreContext,
  portgroup: PortgroupObject,
): Promise<PortgroupObject> {
  const uuid = portgroup.get('uuid');
  if (uuid === null)
    throw new InvalidParameterError('A portgroup without a UUID cannot be saved', 'uuid');
  const values = changesForDb(portgroup, ctx.targets);
  if ('uuid' in values)
    throw new InvalidParameterError('Cannot overwrite UUID for an existing portgroup.', 'uuid');
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  const db = ctx.database.kysely;
  let updated: number;
  try {
    const result = await db
      .updateTable('portgroups')
      .set(toColumns(values, NOT_COLUMNS) as never)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    updated = Number(result.numUpdatedRows);
  } catch (error) {
    return writeError(db, error, values);
  }
  if (updated === 0) throw new NotFoundError('portgroup', uuid);
  return getWhere(ctx, { column: 'uuid', value: uuid });
}

/** Removes a portgroup (by id or uuid); one with ports is PortgroupNotEmpty. */
export async function destroyPortgroup(ctx: StoreContext, ident: string | number): Promise<void> {
  const lookup = lookupOf(ident);
  if (lookup.column !== 'id' && lookup.column !== 'uuid')
    throw new InvalidIdentityError(String(ident));
  try {
    await inRetriedTransaction(ctx.database, async (trx) => {
      const row = await trx
        .selectFrom('portgroups')
        .select('id')
        .where(lookup.column, '=', lookup.value as never)
        .executeTakeFirst();
      if (row === undefined) throw new NotFoundError('portgroup', ident);
      const port = await trx
        .selectFrom('ports')
        .select('id')
        .where('portgroup_id', '=', Number(row.id))
        .limit(1)
        .executeTakeFirst();
      if (port !== undefined) throw new NotEmptyError('portgroup', ident);
      await trx.deleteFrom('portgroups').where('id', '=', Number(row.id)).execute();
    });
  } catch (error) {
    // A port added to it meanwhile.
    if (isForeignKeyViolation(error)) throw new NotEmptyError('portgroup', ident);
    throw error;
  }
}
