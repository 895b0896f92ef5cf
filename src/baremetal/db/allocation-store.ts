/**
 * Allocations (Ironic's `*_allocation*` db functions): read by id, UUID or name, listed with the
 * real filters, created in `allocating`, and updated so that a node given to an allocation gets
 * it in the same transaction: the node row locked, refused (NodeAssociated) when it already has
 * another instance, then its `allocation_id`, `instance_uuid` (the allocation's UUID) and
 * `instance_info.traits` written. Destroying an allocation frees its node the same way.
 */
import { randomUUID } from 'node:crypto';
import { inRetriedTransaction, retryOnDeadlock } from '../../db/index.ts';
import { NodeAssociatedError } from '../common/errors.ts';
import { type AllocationObject, AllocationState } from '../objects/index.ts';
import { ALLOCATION_COLUMNS, allocationFromRow } from './allocation-rows.ts';
import { columnValue, toColumns } from './codec.ts';
import { isUniqueViolation, violatedUniqueColumn } from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import {
  duplicateOf,
  InstanceAssociatedError,
  InvalidParameterError,
  NotFoundError,
} from './errors.ts';
import { identityOf } from './identity.ts';
import { changesForDb } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import { forUpdate } from './row-locks.ts';
import type { Row } from './tables.ts';

const UNIQUE = { uniq_allocations0name: 'name', uniq_allocations0uuid: 'uuid' };

/** Ironic's `_add_allocations_filters`: each given filter narrows the list. */
export interface AllocationFilters {
  readonly node_id?: number;
  readonly state?: string;
  readonly resource_class?: string;
  readonly owner?: string;
  readonly conductor_affinity?: number;
}

function selectAllocations(ctx: StoreContext) {
  return ctx.database.kysely
    .selectFrom('baremetal_allocations')
    .select(ALLOCATION_COLUMNS as never);
}

async function getWhere(
  ctx: StoreContext,
  column: 'id' | 'uuid' | 'name',
  value: string | number,
): Promise<AllocationObject> {
  const row = await selectAllocations(ctx)
    .where(column, '=', value as never)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('allocation', value);
  return allocationFromRow(row as Row);
}

/** By integer id or UUID. */
export function getAllocation(ctx: StoreContext, ident: string | number) {
  const identity = identityOf(ident);
  return 'id' in identity ? getWhere(ctx, 'id', identity.id) : getWhere(ctx, 'uuid', identity.uuid);
}

export function getAllocationByName(ctx: StoreContext, name: string) {
  return getWhere(ctx, 'name', name);
}

export async function listAllocations(
  ctx: StoreContext,
  filters: AllocationFilters = {},
  page: PageOptions = {},
): Promise<AllocationObject[]> {
  checkPageOptions('baremetal_allocations', page);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, 'baremetal_allocations', 'allocation', page);
  let query = selectAllocations(ctx);
  for (const [column, value] of Object.entries(filters)) {
    if (value !== undefined) query = query.where(column as never, '=', value as never);
  }
  const rows = await applyPage(query, 'baremetal_allocations', page, marker).execute();
  return rows.map((row) => allocationFromRow(row as Row));
}

function duplicate(error: unknown, values: Row): Error {
  if (violatedUniqueColumn(error, 'baremetal_allocations', UNIQUE) === 'name') {
    return duplicateOf('allocation', 'name', String(values.name));
  }
  return duplicateOf('allocation', 'uuid', String(values.uuid));
}

/** A new allocation: a UUID and the `allocating` state unless given. */
export async function createAllocation(
  ctx: StoreContext,
  allocation: AllocationObject,
): Promise<AllocationObject> {
  const values = changesForDb(allocation, ctx.targets);
  delete values.id;
  if (!values.uuid) values.uuid = randomUUID();
  if (!values.state) values.state = AllocationState.ALLOCATING;
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  try {
    await retryOnDeadlock(() =>
      ctx.database.kysely
        .insertInto('baremetal_allocations')
        .values(toColumns(values) as never)
        .execute(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(error, values);
    throw error;
  }
  return getWhere(ctx, 'uuid', String(values.uuid));
}

/**
 * Writes the allocation's changed fields (Allocation.save). When it names a node (`node_id`
 * changed to one), the node is taken for it in the same transaction, as Ironic's
 * update_allocation does with `update_node`.
 */
export async function saveAllocation(
  ctx: StoreContext,
  allocation: AllocationObject,
): Promise<AllocationObject> {
  const uuid = String(allocation.get('uuid'));
  const values = changesForDb(allocation, ctx.targets);
  if ('uuid' in values) {
    throw new InvalidParameterError('Cannot overwrite UUID for an existing allocation.', 'uuid');
  }
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  let nodeUuid: string | null = null;
  try {
    await inRetriedTransaction(ctx.database, async (trx) => {
      const query = trx
        .selectFrom('baremetal_allocations')
        .select(['id', 'traits'])
        .where('uuid', '=', uuid);
      const current = await forUpdate(query, ctx.database.caps).executeTakeFirst();
      if (current === undefined) throw new NotFoundError('allocation', uuid);
      await trx
        .updateTable('baremetal_allocations')
        .set(toColumns(values) as never)
        .where('id', '=', current.id)
        .execute();
      if (!values.node_id) return;
      const nodeQuery = trx
        .selectFrom('nodes')
        .select(['uuid', 'instance_uuid', 'instance_info'])
        .where('id', '=', Number(values.node_id));
      const node = await forUpdate(nodeQuery, ctx.database.caps).executeTakeFirst();
      if (node === undefined) throw new NotFoundError('node', Number(values.node_id));
      nodeUuid = node.uuid;
      if (node.instance_uuid && node.instance_uuid !== uuid) {
        throw new NodeAssociatedError(String(node.uuid), node.instance_uuid);
      }
      const traits = 'traits' in values ? values.traits : parsed(current.traits);
      const info = { ...(parsed(node.instance_info) as Row | null), traits: traits ?? [] };
      await trx
        .updateTable('nodes')
        .set({
          allocation_id: Number(current.id),
          instance_uuid: uuid,
          instance_info: columnValue(info) as string,
          updated_at: ctx.now(),
        })
        .where('id', '=', Number(values.node_id))
        .execute();
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (violatedUniqueColumn(error, 'baremetal_allocations', UNIQUE) === 'name') {
      throw duplicateOf('allocation', 'name', String(values.name));
    }
    // The allocation's UUID is another node's instance_uuid already.
    throw new InstanceAssociatedError(uuid, String(nodeUuid));
  }
  return getWhere(ctx, 'uuid', uuid);
}

function parsed(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : (value ?? null);
}

/** Removes an allocation (by id or UUID), freeing the node it holds. */
export async function destroyAllocation(ctx: StoreContext, ident: string | number): Promise<void> {
  const identity = identityOf(ident);
  await inRetriedTransaction(ctx.database, async (trx) => {
    const query = trx
      .selectFrom('baremetal_allocations')
      .select('id')
      .where(
        'id' in identity ? 'id' : 'uuid',
        '=',
        ('id' in identity ? identity.id : identity.uuid) as never,
      );
    const row = await forUpdate(query, ctx.database.caps).executeTakeFirst();
    if (row === undefined) throw new NotFoundError('allocation', ident);
    await trx
      .updateTable('nodes')
      .set({ allocation_id: null, instance_uuid: null, updated_at: ctx.now() })
      .where('allocation_id', '=', Number(row.id))
      .execute();
    await trx.deleteFrom('baremetal_allocations').where('id', '=', Number(row.id)).execute();
  });
}

/**
 * Moves an allocation from a conductor that went away to `newConductorId`, only while the old
 * one still has it: of two conductors racing, one gets true.
 */
export async function takeOverAllocation(
  ctx: StoreContext,
  id: number,
  oldConductorId: number,
  newConductorId: number,
): Promise<boolean> {
  const result = await retryOnDeadlock(() =>
    ctx.database.kysely
      .updateTable('baremetal_allocations')
      .set({ conductor_affinity: newConductorId, updated_at: ctx.now() })
      .where('id', '=', id)
      .where('conductor_affinity', '=', oldConductorId)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}
