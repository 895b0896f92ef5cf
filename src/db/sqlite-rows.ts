/**
 * Reading SQLite rows as objects, cheaply. better-sqlite3 builds each row object key by key
 * in C++, which for wide rows (a node has 58 columns) costs twice the query itself: V8 gives
 * up on a fast object shape after many added keys. Reading the rows as arrays (`raw` mode) and
 * turning each into an object with one object literal per column list (compiled once, so all
 * rows share one shape) gives the same objects at about half the cost.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { type RecordBuilder, recordBuilder } from '../objects/record-builder.ts';

const builders = new Map<string, RecordBuilder | null>();
/**
 * Each statement's row builder, null for rows left to better-sqlite3 (asking SQLite for the
 * column names builds an object per column, and finding the builder joins every name).
 */
const statementRows = new WeakMap<BetterSqlite3.Statement, RecordBuilder | null>();
/** Column lists vary little (one per statement text); the bound only guards against misuse. */
const MAX_BUILDERS = 1000;

/** The row builder for these column names; null when the names cannot make a literal. */
function rowBuilder(names: readonly string[]): RecordBuilder | null {
  const key = names.join('\u0000');
  let build = builders.get(key);
  if (build === undefined) {
    build = recordBuilder(names) ?? null;
    if (builders.size >= MAX_BUILDERS) builders.clear();
    builders.set(key, build);
  }
  return build;
}

/**
 * The rows of a reading statement, as better-sqlite3's `all` returns them. The statement is
 * switched to raw mode (it must not be used for `iterate` or `get` expecting objects after).
 */
export function allRows(
  statement: BetterSqlite3.Statement,
  parameters: readonly unknown[],
): unknown[] {
  if (!statement.reader) return statement.all(...parameters);
  let build = statementRows.get(statement);
  if (build === undefined) {
    build = rowBuilder(statement.columns().map((column) => column.name));
    statementRows.set(statement, build);
  }
  if (build === null) return statement.raw(false).all(...parameters);
  const rows = statement.raw(true).all(...parameters) as unknown[][];
  for (let i = 0; i < rows.length; i++) (rows as unknown[])[i] = build(rows[i] as unknown[]);
  return rows;
}
