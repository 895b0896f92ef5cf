/**
 * Ports (Ironic's `*_port` db functions): written by the conductor. A port's MAC address is
 * unique, and so is its name; taking either is a typed duplicate naming the value. Lookups
 * by id, uuid, address or name; lists by node or portgroup, and by the owner or the project
 * (owner or lessee) of the port's node.
 */

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { retryOnDeadlock } from '../../db/index.ts';
import { runTemplate } from '../../db/query-templates.ts';
import { Port, type PortObject } from '../objects/index.ts';
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
  NotFoundError,
} from './errors.ts';
import { isIntLike, isUuidLike, isValidMac, normalizeMac } from './identity.ts';
import { changesForDb, NODE_UUID_FIELD, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import type { BaremetalTables, Row } from './tables.ts';

type Db = Kysely<BaremetalTables>;
type Lookup = { column: 'id' | 'uuid' | 'address' | 'name'; value: string | number };

/** The ports columns; `node_uuid` is read from the port's node (NODE_UUID_FIELD). */
const COLUMNS = [...Port.fieldNames.filter((name) => name !== NODE_UUID_FIELD), 'version'].map(
  (c) => `ports.${c}`,
);
/** Fields never written to ports: the node's uuid lives in nodes. */
const NOT_COLUMNS: ReadonlySet<string> = new Set([NODE_UUID_FIELD]);
const UNIQUE = { uniq_ports0address: 'address', uniq_ports0uuid: 'uuid', uniq_ports0name: 'name' };

export interface PortFilters {
  readonly node_id?: number;
  readonly portgroup_id?: number;
  readonly address?: string;
  /** Ports of nodes this project owns. */
  readonly owner?: string;
  /** Ports of nodes this project owns or leases. */
  readonly project?: string;
  /** Ports of nodes in these shards (API 1.82; Ironic's list_by_node_shards). */
  readonly shards?: readonly string[];
}

export interface PortListOptions extends PageOptions {
  readonly filters?: PortFilters;
}

function selectPorts(db: Db, filters: PortFilters = {}) {
  let query = db
    .selectFrom('ports')
    .leftJoin('nodes as owning_node', 'owning_node.id', 'ports.node_id')
    .select([...COLUMNS, 'owning_node.uuid as node_uuid'] as never[]);
  if (filters.owner !== undefined || filters.project !== undefined) {
    const { owner, project } = filters;
    let joined = query.innerJoin('nodes', 'nodes.id', 'ports.node_id');
    joined =
      owner !== undefined
        ? joined.where('nodes.owner', '=', owner)
        : joined.where((eb) =>
            eb.or([
              eb('nodes.owner', '=', project as string),
              eb('nodes.lessee', '=', project as string),
            ]),
          );
    query = joined as unknown as typeof query;
  }
  if (filters.node_id !== undefined) query = query.where('ports.node_id', '=', filters.node_id);
  if (filters.portgroup_id !== undefined)
    query = query.where('ports.portgroup_id', '=', filters.portgroup_id);
  if (filters.address !== undefined)
    query = query.where('ports.address', '=', normalizeMac(filters.address));
  if (filters.shards !== undefined) {
    const shards = filters.shards;
    query = query.where((eb) =>
      shards.length === 0 ? eb.val(false) : eb('owning_node.shard' as never, 'in', shards as never),
    );
  }
  return query;
}

async function getWhere(
  ctx: StoreContext,
  lookup: Lookup,
  filters: PortFilters = {},
): Promise<PortObject> {
  const db = ctx.database.kysely;
  const query = (value: string | number) =>
    selectPorts(db, filters).where(`ports.${lookup.column}` as never, '=', value as never);
  // Without filters the query has one shape per column: compiled once.
  const [row] =
    Object.keys(filters).length === 0
      ? await runTemplate(db, `port by ${lookup.column}`, query, [lookup.value])
      : [await query(lookup.value).executeTakeFirst()];
  if (row === undefined) throw new NotFoundError('port', lookup.value);
  return objectFromRow(Port, row as Row);
}

/** Ironic's Port.get: an integer id, a UUID or a MAC address. */
function lookupOf(ident: string | number): Lookup {
  if (isIntLike(ident)) return { column: 'id', value: Number(ident) };
  if (isUuidLike(ident)) return { column: 'uuid', value: ident };
  if (isValidMac(ident)) return { column: 'address', value: normalizeMac(ident) };
  throw new InvalidIdentityError(String(ident));
}

export async function getPort(ctx: StoreContext, ident: string | number): Promise<PortObject> {
  return getWhere(ctx, lookupOf(ident));
}

/** By MAC address, limited to the ports of nodes of an owner or a project when given. */
export async function getPortByAddress(
  ctx: StoreContext,
  address: string,
  scope: { readonly owner?: string; readonly project?: string } = {},
): Promise<PortObject> {
  return getWhere(ctx, { column: 'address', value: normalizeMac(address) }, scope);
}

export async function getPortByName(ctx: StoreContext, name: string): Promise<PortObject> {
  return getWhere(ctx, { column: 'name', value: name });
}

export async function listPorts(
  ctx: StoreContext,
  options: PortListOptions = {},
): Promise<PortObject[]> {
  checkPageOptions('ports', options);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, 'ports', 'port', options);
  const rows = await applyPage(
    selectPorts(db, options.filters),
    'ports',
    options,
    marker,
  ).execute();
  return rows.map((row) => objectFromRow(Port, row as Row));
}

async function writeError(db: Db, error: unknown, values: Row): Promise<never> {
  if (isUniqueViolation(error)) {
    const column = violatedUniqueColumn(error, 'ports', UNIQUE);
    if (column === 'address') throw duplicateOf('port', 'address', String(values.address));
    if (column === 'name') throw duplicateOf('port', 'name', String(values.name));
    throw duplicateOf('port', 'uuid', String(values.uuid));
  }
  if (isForeignKeyViolation(error)) {
    if (values.node_id !== undefined && values.node_id !== null) {
      const node = await db
        .selectFrom('nodes')
        .select('id')
        .where('id', '=', Number(values.node_id))
        .executeTakeFirst();
      if (node === undefined) throw new NotFoundError('node', Number(values.node_id));
    }
    if (values.portgroup_id !== undefined && values.portgroup_id !== null)
      throw new NotFoundError('portgroup', Number(values.portgroup_id));
  }
  throw error;
}

export async function createPort(ctx: StoreContext, port: PortObject): Promise<PortObject> {
  const values = changesForDb(port, ctx.targets);
  if (values.uuid === undefined || values.uuid === null) values.uuid = randomUUID();
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  const db = ctx.database.kysely;
  try {
    await retryOnDeadlock(() =>
      db
        .insertInto('ports')
        .values(toColumns(values, NOT_COLUMNS) as never)
        .execute(),
    );
  } catch (error) {
    return writeError(db, error, values);
  }
  return getWhere(ctx, { column: 'uuid', value: String(values.uuid) });
}

/** Writes the port's changed fields (Ironic's Port.save); returns it as now stored. */
export async function savePort(ctx: StoreContext, port: PortObject): Promise<PortObject> {
  const uuid = port.get('uuid');
  if (uuid === null)
    throw new InvalidParameterError('A port without a UUID cannot be saved', 'uuid');
  const values = changesForDb(port, ctx.targets);
  if ('uuid' in values)
    throw new InvalidParameterError('Cannot overwrite UUID for an existing Port.', 'uuid');
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  const db = ctx.database.kysely;
  let updated: number;
  try {
    const result = await retryOnDeadlock(() =>
      db
        .updateTable('ports')
        .set(toColumns(values, NOT_COLUMNS) as never)
        .where('uuid', '=', uuid)
        .executeTakeFirst(),
    );
    updated = Number(result.numUpdatedRows);
  } catch (error) {
    return writeError(db, error, values);
  }
  if (updated === 0) throw new NotFoundError('port', uuid);
  return getWhere(ctx, { column: 'uuid', value: uuid });
}

/** Removes a port by id, uuid or MAC address. */
export async function destroyPort(ctx: StoreContext, ident: string | number): Promise<void> {
  const lookup = lookupOf(ident);
  const result = await retryOnDeadlock(() =>
    ctx.database.kysely
      .deleteFrom('ports')
      .where(lookup.column, '=', lookup.value as never)
      .executeTakeFirst(),
  );
  if (Number(result.numDeletedRows) === 0) throw new NotFoundError('port', ident);
}
