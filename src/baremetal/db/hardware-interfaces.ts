/**
 * What each conductor can run (Ironic's conductor_hardware_interfaces): one row per hardware
 * type, interface type and interface, with whether it is the default. Registered by the
 * conductor at start, dropped when it unregisters; read by the API (drivers) and by the hash
 * ring (which conductors alive run a hardware type).
 */

import { isUniqueViolation } from './constraint-errors.ts';
import { type StoreContext, secondsAgo } from './context.ts';
import { DuplicateError } from './errors.ts';
import type { Row } from './tables.ts';

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
    .where('conductors.updated_at', '>=', secondsAgo(ctx, heartbeatTimeout));
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
