/**
 * Pages of a list, as Ironic pages them (`_paginate_query` over oslo.db's `paginate_query`):
 * sorted by the sort key then `id`, in one direction; the marker is the last row of the
 * previous page, named by its uuid (a conductor by its hostname), and the next page starts
 * after it (keyset, no offset).
 *
 * Unlike oslo.db, NULLs have one place on every backend (first when ascending, last when
 * descending) and a marker whose sort value is NULL still pages on: oslo.db leaves NULL
 * placement to the backend and drops the marker condition for a NULL value, so a page could
 * repeat rows or end early.
 */
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { InvalidParameterError, NotFoundError, type ResourceKind } from './errors.ts';
import { columnsOf } from './schema-catalog.ts';
import type { BaremetalTables } from './tables.ts';

export type SortDir = 'asc' | 'desc';

export interface PageOptions {
  /** At most this many rows (a positive integer); all when left out. */
  readonly limit?: number;
  /** The uuid (for conductors: the hostname) of the last row of the previous page. */
  readonly marker?: string;
  /** A column of the table; default `id`. */
  readonly sortKey?: string;
  readonly sortDir?: SortDir;
}

/** Where the previous page ended. */
export interface Marker {
  readonly id: number;
  readonly sortValueIsNull: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: pages work on any table's select
type AnySelect = SelectQueryBuilder<BaremetalTables, any, any>;

export function checkPageOptions(table: string, options: PageOptions): void {
  const { limit, sortKey, sortDir } = options;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw new InvalidParameterError(`Limit must be a positive integer, not ${limit}`, 'limit');
  }
  if (sortKey !== undefined && !columnsOf(table).has(sortKey)) {
    throw new InvalidParameterError(
      `The sort_key value "${sortKey}" is an invalid field for sorting`,
      'sort_key',
    );
  }
  if (sortDir !== undefined && sortDir !== 'asc' && sortDir !== 'desc') {
    throw new InvalidParameterError(
      `Invalid sort direction: ${String(sortDir)}. Acceptable values are 'asc' or 'desc'`,
      'sort_dir',
    );
  }
}

/** Looks the marker row up; an unknown marker is the resource's not-found error. */
export async function findMarker(
  db: Kysely<BaremetalTables>,
  table: string,
  kind: ResourceKind,
  options: PageOptions,
  markerColumn = 'uuid',
): Promise<Marker | undefined> {
  if (options.marker === undefined) return undefined;
  const key = options.sortKey ?? 'id';
  const { rows } = await sql<{ id: number; sort_value: unknown }>`
    select id, ${sql.ref(key)} as sort_value from ${sql.table(table)}
    where ${sql.ref(markerColumn)} = ${options.marker}`.execute(db);
  const row = rows[0];
  if (row === undefined) throw new NotFoundError(kind, options.marker);
  return { id: Number(row.id), sortValueIsNull: row.sort_value === null };
}

/** Adds the order, the marker condition and the limit to a select from `table`. */
export function applyPage<Q extends AnySelect>(
  query: Q,
  table: string,
  options: PageOptions,
  marker: Marker | undefined,
): Q {
  const dir = options.sortDir ?? 'asc';
  const key = options.sortKey ?? 'id';
  const id = sql.ref(`${table}.id`);
  const column = sql.ref(`${table}.${key}`);
  const nullable = key !== 'id' && (columnsOf(table).get(key)?.nullable ?? true);
  const after = dir === 'asc' ? sql.raw('>') : sql.raw('<');
  let q: AnySelect = query;
  if (nullable) {
    // (column IS NULL) sorts NULLs first ascending, last descending, on every backend.
    q = q.orderBy(sql`(${column} is null)`, dir === 'asc' ? 'desc' : 'asc');
  }
  if (key !== 'id') q = q.orderBy(column, dir);
  q = q.orderBy(id, dir);
  if (marker !== undefined) q = q.where(seek(table, key, column, id, after, dir, nullable, marker));
  if (options.limit !== undefined) q = q.limit(options.limit);
  return q as Q;
}

function seek(
  table: string,
  key: string,
  column: RawBuilder<unknown>,
  id: RawBuilder<unknown>,
  after: RawBuilder<unknown>,
  dir: SortDir,
  nullable: boolean,
  marker: Marker,
): RawBuilder<boolean> {
  if (key === 'id') return sql<boolean>`${id} ${after} ${marker.id}`;
  // The marker's value is read in SQL: read into JavaScript, a datetime would lose its
  // microseconds and no longer equal itself.
  const value = sql`(select m.${sql.ref(key)} from ${sql.table(table)} m where m.id = ${marker.id})`;
  if (marker.sortValueIsNull) {
    return dir === 'asc'
      ? sql<boolean>`((${column} is null and ${id} > ${marker.id}) or ${column} is not null)`
      : sql<boolean>`(${column} is null and ${id} < ${marker.id})`;
  }
  const rest = sql`(${column} ${after} ${value} or (${column} = ${value} and ${id} ${after} ${marker.id}))`;
  return dir === 'desc' && nullable
    ? sql<boolean>`(${rest} or ${column} is null)`
    : sql<boolean>`${rest}`;
}
