/**
 * Conductors (Ironic's `*_conductor*` db functions): a conductor registers with its hostname,
 * drivers and group, heartbeats by touching `updated_at`, and unregisters by going offline.
 * It is alive while online and touched within the heartbeat timeout. Its hardware interfaces
 * (which hardware types and interfaces it can run) are rows of their own.
 */
import { inTransaction } from '../../db/index.ts';
import { Conductor, type ConductorObject } from '../objects/index.ts';
import { parseJsonColumns, toColumns } from './codec.ts';
import { isUniqueViolation } from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import { ConductorAlreadyRegisteredError, DuplicateError, NotFoundError } from './errors.ts';
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

/** A row of conductor_hardware_interfaces, with Ironic's keys. */
export interface HardwareInterface {
  readonly hardware_type: string;
  readonly interface_type: string;
  readonly interface_name: string;
  readonly default: boolean;
}

export interface ConductorHardwareInterface extends HardwareInterface {
  readonly conductor_id: number;
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
    await inTransaction(ctx.database, async (trx) => {
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
  const result = await ctx.database.kysely
    .updateTable('conductors')
    .set({ updated_at: ctx.now(), online: true })
    .where('hostname', '=', hostname)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('conductor', hostname);
}

/** Goes offline and drops its hardware interfaces; a conductor not online is ConductorNotFound. */
export async function unregisterConductor(ctx: StoreContext, hostname: string): Promise<void> {
  await inTransaction(ctx.database, async (trx) => {
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

const since = (ctx: StoreContext, seconds: number) =>
  new Date(ctx.now().getTime() - seconds * 1000);

/** Hostnames of the conductors alive: online and touched within `heartbeatTimeout` seconds. */
export async function activeConductors(
  ctx: StoreContext,
  heartbeatTimeout: number,
): Promise<string[]> {
  const rows = await ctx.database.kysely
    .selectFrom('conductors')
    .select('hostname')
    .where('online', '=', true)
    .where('updated_at', '>=', since(ctx, heartbeatTimeout))
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
    .where('updated_at', '<', since(ctx, heartbeatTimeout))
    .orderBy('hostname')
    .execute();
  return rows.map((row) => row.hostname);
}

export async function registerHardwareInterfaces(
  ctx: StoreContext,
  conductorId: number,
  interfaces: readonly HardwareInterface[],
): Promise<void> {
  if (interfaces.length === 0) return;
  const now = ctx.now();
  try {
    await ctx.database.kysely
      .insertInto('conductor_hardware_interfaces')
      .values(interfaces.map((i) => ({ ...i, conductor_id: conductorId, created_at: now })))
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const row = JSON.stringify(interfaces.map((i) => ({ ...i, conductor_id: conductorId })));
    throw new DuplicateError(
      'conductor_hardware_interface',
      'hardware_interface',
      row,
      `Duplication detected for hardware_type, interface_type and interface combinations for this conductor while registering the row ${row}`,
    );
  }
}

export async function unregisterHardwareInterfaces(
  ctx: StoreContext,
  conductorId: number,
): Promise<void> {
  await ctx.database.kysely
    .deleteFrom('conductor_hardware_interfaces')
    .where('conductor_id', '=', conductorId)
    .execute();
}

const INTERFACE_COLUMNS = [
  'conductor_hardware_interfaces.conductor_id',
  'conductor_hardware_interfaces.hardware_type',
  'conductor_hardware_interfaces.interface_type',
  'conductor_hardware_interfaces.interface_name',
  'conductor_hardware_interfaces.default',
] as const;

function interfaceOf(row: Row): ConductorHardwareInterface {
  return {
    conductor_id: Number(row.conductor_id),
    hardware_type: String(row.hardware_type),
    interface_type: String(row.interface_type),
    interface_name: String(row.interface_name),
    default: Boolean(Number(row.default)),
  };
}

export async function listConductorHardwareInterfaces(
  ctx: StoreContext,
  conductorId: number,
): Promise<ConductorHardwareInterface[]> {
  const rows = await ctx.database.kysely
    .selectFrom('conductor_hardware_interfaces')
    .select(INTERFACE_COLUMNS)
    .where('conductor_id', '=', conductorId)
    .orderBy('id')
    .execute();
  return rows.map((row) => interfaceOf(row as Row));
}

function aliveHardware(ctx: StoreContext, heartbeatTimeout: number) {
  return ctx.database.kysely
    .selectFrom('conductor_hardware_interfaces')
    .innerJoin('conductors', 'conductors.id', 'conductor_hardware_interfaces.conductor_id')
    .where('conductors.online', '=', true)
    .where('conductors.updated_at', '>=', since(ctx, heartbeatTimeout));
}

/** The interfaces of these hardware types on conductors alive. */
export async function listHardwareTypeInterfaces(
  ctx: StoreContext,
  hardwareTypes: readonly string[],
  heartbeatTimeout: number,
): Promise<ConductorHardwareInterface[]> {
  if (hardwareTypes.length === 0) return [];
  const rows = await aliveHardware(ctx, heartbeatTimeout)
    .select(INTERFACE_COLUMNS)
    .where('conductor_hardware_interfaces.hardware_type', 'in', hardwareTypes)
    .orderBy('conductor_hardware_interfaces.id')
    .execute();
  return rows.map((row) => interfaceOf(row as Row));
}

/**
 * For the hash ring: each hardware type run by conductors alive, with their hostnames; with
 * `useGroups` the key is `<conductor group>:<hardware type>` (Ironic's get_active_hardware_type_dict).
 */
export async function activeHardwareTypes(
  ctx: StoreContext,
  heartbeatTimeout: number,
  options: { readonly useGroups?: boolean } = {},
): Promise<Map<string, Set<string>>> {
  const rows = await aliveHardware(ctx, heartbeatTimeout)
    .select([
      'conductor_hardware_interfaces.hardware_type',
      'conductors.hostname',
      'conductors.conductor_group',
    ])
    .distinct()
    .execute();
  const result = new Map<string, Set<string>>();
  for (const row of rows) {
    const key = options.useGroups
      ? `${row.conductor_group}:${row.hardware_type}`
      : row.hardware_type;
    const hosts = result.get(key) ?? new Set<string>();
    hosts.add(row.hostname);
    result.set(key, hosts);
  }
  return result;
}
