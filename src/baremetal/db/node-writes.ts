/**
 * Writing nodes as Ironic's `create_node`, `update_node` and `destroy_node` do: a new node gets
 * a UUID and the `enroll` provision state unless given; an update never changes the UUID, and
 * one that sets `provision_state` stamps `provision_updated_at` (and the inspection times);
 * destroying a node removes its ports, portgroups, traits, tags, inventory and allocations with it. Values are written
 * at the object versions of the caller's caps (object-rows.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inRetriedTransaction, retryOnDeadlock } from '../../db/index.ts';
import type { NodeObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  violatedUniqueColumn,
} from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import {
  duplicateOf,
  InstanceAssociatedError,
  InvalidParameterError,
  NotFoundError,
} from './errors.ts';
import { type Identity, identityOf } from './identity.ts';
import { getNodeWhere } from './node-reads.ts';
import { nodeValuesToWrite } from './node-rules.ts';
import { changesForDb } from './object-rows.ts';
import { forUpdate } from './row-locks.ts';
import type { BaremetalTables, Row } from './tables.ts';

type Db = Kysely<BaremetalTables>;

const UNIQUE: Record<string, string> = {
  uniq_nodes0uuid: 'uuid',
  uniq_nodes0name: 'name',
  uniq_nodes0instance_uuid: 'instance_uuid',
};

const INSPECTING = 'inspecting';
const INSPECT_WAIT = 'inspect wait';
const INSPECT_FAILED = 'inspect failed';
const MANAGEABLE = 'manageable';

/** The insert or update that hit a unique key, as Ironic names it. */
function duplicateError(error: unknown, values: Row, node: string): Error {
  const column = violatedUniqueColumn(error, 'nodes', UNIQUE);
  if (column === 'name') return duplicateOf('node', 'name', String(values.name));
  if (column === 'instance_uuid')
    return new InstanceAssociatedError(String(values.instance_uuid), node);
  return duplicateOf('node', 'uuid', String(values.uuid ?? node));
}

/** A foreign key refused the write: the chassis or conductor it names is gone. */
async function missingReference(db: Db, values: Row): Promise<Error | undefined> {
  if (values.chassis_id !== undefined && values.chassis_id !== null) {
    const found = await db
      .selectFrom('chassis')
      .select('id')
      .where('id', '=', Number(values.chassis_id))
      .executeTakeFirst();
    if (found === undefined) return new NotFoundError('chassis', Number(values.chassis_id));
  }
  if (values.conductor_affinity !== undefined && values.conductor_affinity !== null) {
    const id = Number(values.conductor_affinity);
    const found = await db
      .selectFrom('conductors')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (found === undefined) return new NotFoundError('conductor', id);
  }
  return undefined;
}

async function translateWriteError(
  db: Db,
  error: unknown,
  values: Row,
  node: string,
): Promise<never> {
  if (isUniqueViolation(error)) throw duplicateError(error, values, node);
  if (isForeignKeyViolation(error)) throw (await missingReference(db, values)) ?? error;
  throw error;
}

export async function createNode(ctx: StoreContext, node: NodeObject): Promise<NodeObject> {
  const changes = changesForDb(node, ctx.targets);
  if (!('uuid' in changes) || changes.uuid === null) changes.uuid = randomUUID();
  const values = nodeValuesToWrite(changes, ctx.logInDbMaxSize, changes.uuid);
  if (!('power_state' in values)) values.power_state = null;
  if (!('provision_state' in values)) values.provision_state = 'enroll';
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  const db = ctx.database.kysely;
  const columns = toColumns(values);
  let id: number;
  try {
    const insert = db.insertInto('nodes').values(columns as never);
    if (ctx.database.caps.returning) {
      id = Number((await insert.returning('id').executeTakeFirstOrThrow()).id);
    } else {
      id = Number((await insert.executeTakeFirstOrThrow()).insertId);
    }
  } catch (error) {
    return translateWriteError(db, error, values, String(values.uuid));
  }
  return getNodeWhere(ctx, 'id', id);
}

/** Ironic's `update_node` inside its transaction: the row locked, the state stamps added. */
async function updateLocked(
  trx: Db,
  ctx: StoreContext,
  uuid: string,
  values: Row,
): Promise<number> {
  const query = trx.selectFrom('nodes').select(['id', 'provision_state']).where('uuid', '=', uuid);
  const current = await forUpdate(query, ctx.database.caps).executeTakeFirst();
  if (current === undefined) throw new NotFoundError('node', uuid);
  if ('provision_state' in values) {
    const now = ctx.now();
    const from = current.provision_state;
    const to = values.provision_state;
    values.provision_updated_at = now;
    if (to === INSPECTING) {
      values.inspection_started_at = now;
      values.inspection_finished_at = null;
    } else if ((from === INSPECTING || from === INSPECT_WAIT) && to === MANAGEABLE) {
      values.inspection_finished_at = now;
      values.inspection_started_at = null;
    } else if ((from === INSPECTING || from === INSPECT_WAIT) && to === INSPECT_FAILED) {
      values.inspection_started_at = null;
    }
  }
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  await trx
    .updateTable('nodes')
    .set(toColumns(values) as never)
    .where('id', '=', current.id)
    .execute();
  return Number(current.id);
}

/** Writes a node's changed fields (Ironic's Node.save); returns the node as now stored. */
export async function saveNode(ctx: StoreContext, node: NodeObject): Promise<NodeObject> {
  const uuid = node.get('uuid');
  if (uuid === null)
    throw new InvalidParameterError('A node without a UUID cannot be saved', 'uuid');
  const changes = changesForDb(node, ctx.targets);
  if ('uuid' in changes)
    throw new InvalidParameterError('Cannot overwrite UUID for an existing Node.', 'uuid');
  const values = nodeValuesToWrite(changes, ctx.logInDbMaxSize, uuid);
  let id: number;
  try {
    id = await inRetriedTransaction(ctx.database, (trx) => updateLocked(trx, ctx, uuid, values));
  } catch (error) {
    return translateWriteError(ctx.database.kysely, error, values, uuid);
  }
  return getNodeWhere(ctx, 'id', id);
}

function whereIdentity(identity: Identity): ['id' | 'uuid', number | string] {
  return 'id' in identity ? ['id', identity.id] : ['uuid', identity.uuid];
}

/** Removes a node (by id or uuid) with its ports, portgroups, traits, tags and allocations. */
export async function destroyNode(ctx: StoreContext, ident: string | number): Promise<void> {
  const [column, value] = whereIdentity(identityOf(ident));
  await inRetriedTransaction(ctx.database, async (trx) => {
    const query = trx
      .selectFrom('nodes')
      .select('id')
      .where(column, '=', value as never);
    const row = await forUpdate(query, ctx.database.caps).executeTakeFirst();
    if (row === undefined) throw new NotFoundError('node', ident);
    const id = Number(row.id);
    // Ports first: they may point at the node's portgroups.
    await trx.deleteFrom('ports').where('node_id', '=', id).execute();
    await trx.deleteFrom('portgroups').where('node_id', '=', id).execute();
    await trx.deleteFrom('node_tags').where('node_id', '=', id).execute();
    await trx.deleteFrom('node_traits').where('node_id', '=', id).execute();
    await trx.deleteFrom('node_inventory').where('node_id', '=', id).execute();
    await trx.deleteFrom('bios_settings').where('node_id', '=', id).execute();
    await trx.deleteFrom('node_history').where('node_id', '=', id).execute();
    await trx.deleteFrom('volume_connectors').where('node_id', '=', id).execute();
    await trx.deleteFrom('volume_targets').where('node_id', '=', id).execute();
    // Its allocations go with it (the API allows this only in maintenance, as Ironic's).
    await trx.deleteFrom('baremetal_allocations').where('node_id', '=', id).execute();
    await trx.deleteFrom('nodes').where('id', '=', id).execute();
  });
}

/** Marks the node's provisioning as alive (provision_updated_at = now). */
export async function touchNodeProvisioning(
  ctx: StoreContext,
  ident: string | number,
): Promise<void> {
  const [column, value] = whereIdentity(identityOf(ident));
  const result = await retryOnDeadlock(() =>
    ctx.database.kysely
      .updateTable('nodes')
      .set({ provision_updated_at: ctx.now(), updated_at: ctx.now() })
      .where(column, '=', value as never)
      .executeTakeFirst(),
  );
  if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('node', ident);
}
