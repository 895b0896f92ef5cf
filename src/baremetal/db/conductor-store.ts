/**
 * Conductors (Ironic's `*_conductor*` db functions): a conductor registers with its hostname,
 * drivers and group, heartbeats by touching `updated_at`, and unregisters by going offline.
 * It is alive while online and touched within the heartbeat timeout. Its hardware interfaces
 * (which hardware types and interfaces it can run) are rows of their own.
 */
import { inRetriedTransaction, retryOnDeadlock } from '../../db/index.ts';
import { Conductor, type ConductorObject } from '../objects/index.ts';
import { parseJsonColumns, toColumns } from './codec.ts';
import { isUniqueViolation } from './constraint-errors.ts';
import { type StoreContext, secondsAgo } from './context.ts';
import { ConductorAlreadyRegisteredError, NotFoundError } from './errors.ts';
import { validConductorGroup } from './node-rules.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import { forUpdate } from './row-locks.ts';
import type { Row } from './tables.ts';

const COLUMNS = [...Conductor.fieldNames, 'version'] as never[];

export interface ConductorRegistration {
  readonly hostname: string;
  readonly drivers: readonly string[];
  /** Validated as Ironic validates it, and lower-cased. */
  readonly conductor_group: string;
}

function conductorFromRow(row: Row): ConductorObject {
  return objectFromRow(Conductor, parseJsonColumns(row, ['drivers']));
}

/**
 * Registers a conductor (online, touched now, at the target Conductor version). An online
 * conductor of that hostname is ConductorAlreadyRegistered unless `updateExisting`.
 */
export async function registerConductor(
  ctx: StoreContext,
  registration: ConductorRegistration,
  options: { readonly updateExisting?: boolean } = {},
): Promise<ConductorObject> {
  const group = validConductorGroup(registration.conductor_group);
  const conductor = Conductor.create({
    hostname: registration.hostname,
    drivers: [...registration.drivers],
    conductor_group: group,
  });
  const now = ctx.now();
  const values = toColumns({
    ...changesForDb(conductor, ctx.targets),
    online: true,
    updated_at: now,
  });
  try {
    await inRetriedTransaction(ctx.database, async (trx) => {
      const query = trx
        .selectFrom('conductors')
        .select(['id', 'online'])
        .where('hostname', '=', registration.hostname);
      const existing = await forUpdate(query, ctx.database.caps).executeTakeFirst();
      if (existing === undefined) {
        await trx
          .insertInto('conductors')
          .values({ ...values, created_at: now } as never)
          .execute();
      } else if (existing.online && options.updateExisting !== true) {
        throw new ConductorAlreadyRegisteredError(registration.hostname);
      } else {
        await trx
          .updateTable('conductors')
          .set(values as never)
          .where('id', '=', existing.id)
          .execute();
      }
    });
  } catch (error) {
    // Registered by another process between our look and our insert.
    if (isUniqueViolation(error)) throw new ConductorAlreadyRegisteredError(registration.hostname);
    throw error;
  }
  return getConductor(ctx, registration.hostname);
}

/** A conductor by hostname; `online: null` finds it online or not (default: online only). */
export async function getConductor(
  ctx: StoreContext,
  hostname: string,
  online: boolean | null = true,
): Promise<ConductorObject> {
  let query = ctx.database.kysely
    .selectFrom('conductors')
    .select(COLUMNS)
    .where('hostname', '=', hostname);
  if (online !== null) query = query.where('online', '=', online);
  const row = await query.executeTakeFirst();
  if (row === undefined) throw new NotFoundError('conductor', hostname);
  return conductorFromRow(row as Row);
}

/** Every conductor, online or not; the marker is a hostname. */
export async function listConductors(
  ctx: StoreContext,
  page: PageOptions = {},
): Promise<ConductorObject[]> {
  checkPageOptions('conductors', page);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, 'conductors', 'conductor', page, 'hostname');
  const rows = await applyPage(
    db.selectFrom('conductors').select(COLUMNS),
    'conductors',
    page,
    marker,
  ).execute();
  return rows.map((row) => conductorFromRow(row as Row));
}

/** The heartbeat: touched now and online. */
export async function touchConductor(ctx: StoreContext, hostname: string): Promise<void> {
  const result = await retryOnDeadlock(() =>
    ctx.database.kysely
      .updateTable('conductors')
      .set({ updated_at: ctx.now(), online: true })
      .where('hostname', '=', hostname)
      .executeTakeFirst(),
  );
  if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('conductor', hostname);
}

/** Goes offline and drops its hardware interfaces; a conductor not online is ConductorNotFound. */
export async function unregisterConductor(ctx: StoreContext, hostname: string): Promise<void> {
  await inRetriedTransaction(ctx.database, async (trx) => {
    const row = await trx
      .selectFrom('conductors')
      .select('id')
      .where('hostname', '=', hostname)
      .where('online', '=', true)
      .executeTakeFirst();
    if (row === undefined) throw new NotFoundError('conductor', hostname);
    await trx
      .deleteFrom('conductor_hardware_interfaces')
      .where('conductor_id', '=', row.id)
      .execute();
    await trx
      .updateTable('conductors')
      .set({ online: false, updated_at: ctx.now() })
      .where('id', '=', row.id)
      .execute();
  });
}

/** Hostnames of the conductors alive: online and touched within `heartbeatTimeout` seconds. */
export async function activeConductors(
  ctx: StoreContext,
  heartbeatTimeout: number,
): Promise<string[]> {
  const rows = await ctx.database.kysely
    .selectFrom('conductors')
    .select('hostname')
    .where('online', '=', true)
    .where('updated_at', '>=', secondsAgo(ctx, heartbeatTimeout))
    .orderBy('hostname')
    .execute();
  return rows.map((row) => row.hostname);
}

/** Hostnames of the conductors not touched within `heartbeatTimeout` seconds (dead or stopped). */
export async function offlineConductors(
  ctx: StoreContext,
  heartbeatTimeout: number,
): Promise<string[]> {
  const rows = await ctx.database.kysely
    .selectFrom('conductors')
    .select('hostname')
    .where('updated_at', '<', secondsAgo(ctx, heartbeatTimeout))
    .orderBy('hostname')
    .execute();
  return rows.map((row) => row.hostname);
}
