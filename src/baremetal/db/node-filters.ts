/**
 * The node list's filters, as Ironic's `_add_nodes_filters` has them (names are Ironic's
 * filter keys), plus two for the `conductor` filter: the API works out from the hash ring
 * which nodes a conductor has and hands them in as ids or as (conductor group, driver) pairs.
 */
import { type SelectQueryBuilder, sql } from 'kysely';
import type { BaremetalTables } from './tables.ts';

export interface NodeFilters {
  // Equality on a column (Ironic's _NODE_QUERY_FIELDS).
  readonly console_enabled?: boolean;
  readonly maintenance?: boolean;
  readonly retired?: boolean;
  readonly driver?: string;
  readonly resource_class?: string;
  readonly provision_state?: string;
  readonly uuid?: string;
  readonly id?: number;
  readonly fault?: string;
  readonly conductor_group?: string;
  readonly owner?: string;
  readonly lessee?: string;
  readonly instance_uuid?: string;
  // Membership (_NODE_IN_QUERY_FIELDS).
  readonly uuid_in?: readonly string[];
  readonly provision_state_in?: readonly string[];
  readonly shard_in?: readonly string[];
  // NULL or not (_NODE_NON_NULL_FILTERS): true keeps the nodes where the column is set.
  readonly associated?: boolean;
  readonly reserved?: boolean;
  readonly with_power_state?: boolean;
  readonly sharded?: boolean;
  /** The node's chassis, by uuid; an unknown chassis is ChassisNotFound. */
  readonly chassis_uuid?: string;
  readonly reserved_by_any_of?: readonly string[];
  /** Seconds: provision_updated_at older than this. */
  readonly provisioned_before?: number;
  /** Seconds: inspection_started_at older than this. */
  readonly inspection_started_before?: number;
  /** Description LIKE %text%: `%` and `_` match as wildcards, as in Ironic. */
  readonly description_contains?: string | null;
  /** Owner or lessee. */
  readonly project?: string;
  // The conductor filter, resolved through the hash ring above the store.
  readonly id_in?: readonly number[];
  readonly conductor_group_driver_in?: readonly {
    readonly conductor_group: string;
    readonly driver: string;
  }[];
}

const EQUAL = [
  'console_enabled',
  'maintenance',
  'retired',
  'driver',
  'resource_class',
  'provision_state',
  'uuid',
  'id',
  'fault',
  'conductor_group',
  'owner',
  'lessee',
  'instance_uuid',
] as const;

const NOT_NULL = {
  associated: 'instance_uuid',
  reserved: 'reservation',
  with_power_state: 'power_state',
  sharded: 'shard',
} as const;

// biome-ignore lint/suspicious/noExplicitAny: filters apply to any select from nodes
type NodeSelect = SelectQueryBuilder<BaremetalTables, 'nodes', any>;

/**
 * Adds the filters to a select from `nodes`. `chassisId` is the resolved `chassis_uuid`
 * (looked up by the caller, which raises ChassisNotFound); `now` is the clock.
 */
export function applyNodeFilters<Q extends NodeSelect>(
  query: Q,
  filters: NodeFilters,
  resolved: { readonly chassisId?: number; readonly now: Date },
): Q {
  // biome-ignore lint/suspicious/noExplicitAny: columns are named by data here
  let q: any = query;
  // No stored value holds a NUL (PostgreSQL's text cannot, and names refuse it), so such a
  // filter matches nothing, on every backend, instead of PostgreSQL's encoding error.
  if (Object.values(filters).some(holdsNul)) return q.where(sql<boolean>`1 = 0`);
  for (const field of EQUAL) {
    const value = filters[field];
    if (value !== undefined) q = q.where(`nodes.${field}`, '=', value);
  }
  if (filters.uuid_in !== undefined) q = whereIn(q, 'nodes.uuid', filters.uuid_in);
  if (filters.provision_state_in !== undefined)
    q = whereIn(q, 'nodes.provision_state', filters.provision_state_in);
  if (filters.shard_in !== undefined) q = whereIn(q, 'nodes.shard', filters.shard_in);
  for (const [filter, column] of Object.entries(NOT_NULL)) {
    const value = filters[filter as keyof typeof NOT_NULL];
    if (value !== undefined) q = q.where(`nodes.${column}`, value ? 'is not' : 'is', null);
  }
  if (resolved.chassisId !== undefined) q = q.where('nodes.chassis_id', '=', resolved.chassisId);
  if (filters.reserved_by_any_of !== undefined)
    q = whereIn(q, 'nodes.reservation', filters.reserved_by_any_of);
  if (filters.provisioned_before !== undefined)
    q = q.where(
      'nodes.provision_updated_at',
      '<',
      secondsBefore(resolved.now, filters.provisioned_before),
    );
  if (filters.inspection_started_before !== undefined)
    q = q.where(
      'nodes.inspection_started_at',
      '<',
      secondsBefore(resolved.now, filters.inspection_started_before),
    );
  if (filters.description_contains !== undefined && filters.description_contains !== null)
    q = q.where('nodes.description', 'like', `%${filters.description_contains}%`);
  if (filters.project !== undefined) {
    const project = filters.project;
    // biome-ignore lint/suspicious/noExplicitAny: the expression builder of a dynamic query
    q = q.where((eb: any) =>
      eb.or([eb('nodes.owner', '=', project), eb('nodes.lessee', '=', project)]),
    );
  }
  if (filters.id_in !== undefined) q = whereIn(q, 'nodes.id', filters.id_in);
  if (filters.conductor_group_driver_in !== undefined) {
    const pairs = filters.conductor_group_driver_in;
    // biome-ignore lint/suspicious/noExplicitAny: the expression builder of a dynamic query
    q = q.where((eb: any) =>
      pairs.length === 0
        ? sql<boolean>`1 = 0`
        : eb.or(
            pairs.map((p) =>
              eb.and([
                eb('nodes.conductor_group', '=', p.conductor_group),
                eb('nodes.driver', '=', p.driver),
              ]),
            ),
          ),
    );
  }
  return q as Q;
}

// biome-ignore lint/suspicious/noExplicitAny: a dynamic query
function whereIn(q: any, column: string, values: readonly unknown[]): any {
  // IN () is not SQL; an empty list matches nothing, as SQLAlchemy's in_([]) does.
  return values.length === 0 ? q.where(sql<boolean>`1 = 0`) : q.where(column, 'in', values);
}

function secondsBefore(now: Date, seconds: number): Date {
  return new Date(now.getTime() - seconds * 1000);
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  return Array.isArray(value) && value.some(holdsNul);
}
