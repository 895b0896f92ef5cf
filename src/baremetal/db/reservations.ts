/**
 * Node reservations (Ironic's TaskManager lock in the database): the conductor doing work on
 * a node holds `nodes.reservation = <its host>` meanwhile. Taking it is one conditional
 * UPDATE (`… WHERE reservation IS NULL`), atomic on every backend, so of two conductors racing
 * for a node exactly one gets it and the other is told who holds it. Releasing is allowed to
 * the holder only. The reservations of dead conductors are cleared by the live ones, and a
 * reservation whose node could not be read is released at once.
 */
import { sql } from 'kysely';
import { inRetriedTransaction, retryOnDeadlock } from '../../db/index.ts';
import type { NodeObject } from '../objects/index.ts';
import type { StoreContext } from './context.ts';
import { NodeLockedError, NodeNotLockedError, NotFoundError } from './errors.ts';
import { type Identity, identityOf } from './identity.ts';
import { getNodeByIdentity } from './node-reads.ts';

/** How often a reservation released between our UPDATE and our look is tried again. */
const RESERVE_ATTEMPTS = 5;

function where(identity: Identity): ['id' | 'uuid', number | string] {
  return 'id' in identity ? ['id', identity.id] : ['uuid', identity.uuid];
}

async function holderOf(ctx: StoreContext, identity: Identity, ident: string | number) {
  const [column, value] = where(identity);
  const row = await ctx.database.kysely
    .selectFrom('nodes')
    .select(['uuid', 'reservation'])
    .where(column, '=', value as never)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('node', ident);
  return { uuid: String(row.uuid), holder: row.reservation };
}

/** Reserves the node (id or uuid) for `host`; NodeLocked names the holder when taken. */
export async function reserveNode(
  ctx: StoreContext,
  host: string,
  ident: string | number,
): Promise<NodeObject> {
  const identity = identityOf(ident);
  const [column, value] = where(identity);
  let uuid = String(ident);
  for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
    const result = await retryOnDeadlock(() =>
      ctx.database.kysely
        .updateTable('nodes')
        .set({ reservation: host, updated_at: ctx.now() })
        .where(column, '=', value as never)
        .where('reservation', 'is', null)
        .executeTakeFirst(),
    );
    if (Number(result.numUpdatedRows) === 1) return readReserved(ctx, host, identity);
    const seen = await holderOf(ctx, identity, ident);
    uuid = seen.uuid;
    if (seen.holder !== null) throw new NodeLockedError(seen.uuid, seen.holder);
    // Released between the UPDATE and the look: free again, so try again.
  }
  throw new NodeLockedError(uuid, 'another host (taken and released repeatedly)');
}

/**
 * The node just reserved. A reservation must never outlive a failed read of its node (a row
 * this code cannot read, written by a newer release; a value it refuses): nothing would ever
 * release it. So a failed read releases it before the failure goes on; a release that meets
 * the database away throws that instead, which the conductor's local reservations keep in
 * doubt until the database answers (conductor/local-reservations.ts).
 */
async function readReserved(
  ctx: StoreContext,
  host: string,
  identity: Identity,
): Promise<NodeObject> {
  try {
    return await getNodeByIdentity(ctx, identity);
  } catch (error) {
    const [column, value] = where(identity);
    await retryOnDeadlock(() =>
      ctx.database.kysely
        .updateTable('nodes')
        .set({ reservation: null })
        .where(column, '=', value as never)
        .where('reservation', '=', host)
        .execute(),
    );
    throw error;
  }
}

/** Releases `host`'s reservation of the node; NodeNotLocked or NodeLocked otherwise. */
export async function releaseNode(
  ctx: StoreContext,
  host: string,
  ident: string | number,
): Promise<void> {
  const identity = identityOf(ident);
  const [column, value] = where(identity);
  const result = await retryOnDeadlock(() =>
    ctx.database.kysely
      .updateTable('nodes')
      .set({ reservation: null, updated_at: ctx.now() })
      .where(column, '=', value as never)
      .where('reservation', '=', host)
      .executeTakeFirst(),
  );
  if (Number(result.numUpdatedRows) === 1) return;
  const seen = await holderOf(ctx, identity, ident);
  if (seen.holder === null) throw new NodeNotLockedError(seen.uuid);
  throw new NodeLockedError(seen.uuid, seen.holder);
}

const heldByAny = (hosts: readonly string[]) =>
  sql<boolean>`lower(reservation) in (${sql.join(hosts.map((h) => h.toLowerCase()))})`;

/**
 * Clears every reservation held by these hosts (dead conductors), host names compared without
 * case as Ironic does; returns the uuids of the nodes freed.
 */
export async function clearNodeReservations(
  ctx: StoreContext,
  hosts: readonly string[],
): Promise<string[]> {
  if (hosts.length === 0) return [];
  return inRetriedTransaction(ctx.database, async (trx) => {
    const rows = await trx.selectFrom('nodes').select('uuid').where(heldByAny(hosts)).execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('nodes')
      .set({ reservation: null, updated_at: ctx.now() })
      .where(heldByAny(hosts))
      .execute();
    return rows.map((row) => String(row.uuid));
  });
}

/** Ironic's message for a power operation a conductor restart cut short. */
export const ABORTED_POWER_OPERATION =
  'Pending power operation was aborted due to conductor restart';

/**
 * For a conductor starting again: the nodes it still holds that were waiting for a power
 * state lose that target, with a last_error saying why; returns their uuids.
 */
export async function clearNodeTargetPowerState(
  ctx: StoreContext,
  host: string,
): Promise<string[]> {
  return inRetriedTransaction(ctx.database, async (trx) => {
    const rows = await trx
      .selectFrom('nodes')
      .select('uuid')
      .where(heldByAny([host]))
      .where('target_power_state', 'is not', null)
      .execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('nodes')
      .set({ target_power_state: null, last_error: ABORTED_POWER_OPERATION, updated_at: ctx.now() })
      .where(heldByAny([host]))
      .where('target_power_state', 'is not', null)
      .execute();
    return rows.map((row) => String(row.uuid));
  });
}
