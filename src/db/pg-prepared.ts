/**
 * Prepared statements for the queries a PostgreSQL connection repeats.
 *
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it each time; for the
 * short queries of a busy service that is a large share of the database's CPU. Here a
 * parameterized statement a connection runs for the second time gets a name derived from
 * its text, so node-postgres prepares it once on that connection and then only binds and
 * executes it (and PostgreSQL, once a generic plan looks as good, stops planning it too).
 *
 * Bounded: at most `maxPerConnection` statements are named on a connection (the first ones
 * seen twice); the texts counted towards that are forgotten past a few thousand.
 * Left unnamed: statements whose result columns follow a table's definition (any `*` but
 * `count(*)`): a column added by a migration during a rolling upgrade would make such a
 * prepared statement fail ("cached plan must not change result type"). Should that error
 * come anyway (a column's type changed), the statement is never named again on that
 * connection; its plan is otherwise kept valid by PostgreSQL across schema changes.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** PostgreSQL's feature_not_supported: raised for a prepared statement whose result changed. */
const RESULT_TYPE_CHANGED = '0A000';
const MAX_COUNTED = 4_096;

/** How many statements a PostgreSQL connection keeps prepared. */
export interface PreparedStatementOptions {
  /** The most statements named on one connection (default 100). */
  readonly maxPerConnection?: number;
}

/** Whether a statement's result columns are spelled out (no `*` other than `count(*)`). */
export function hasFixedResultColumns(text: string): boolean {
  return !text.replace(/count\(\*\)/gi, '').includes('*');
}

function statementName(text: string): string {
  return `baton_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * Makes `client` name the parameterized statements it repeats. Meant for a pool's `connect`
 * event, so every connection gets its own bookkeeping.
 */
export function prepareRepeatedStatements(
  client: pg.ClientBase,
  options: PreparedStatementOptions = {},
): void {
  const maxNamed = options.maxPerConnection ?? 100;
  const named = new Map<string, string>();
  const seen = new Set<string>();
  const never = new Set<string>();
  /** Statements prepared on the server (a forgotten one stays there until the session ends). */
  let prepared = 0;
  const query = client.query.bind(client) as QueryFunction;

  const nameFor = (text: string): string | undefined => {
    const name = named.get(text);
    if (name !== undefined || never.has(text)) return name;
    if (prepared >= maxNamed || !hasFixedResultColumns(text)) return undefined;
    if (!seen.has(text)) {
      if (seen.size >= MAX_COUNTED) seen.clear();
      seen.add(text);
      return undefined;
    }
    const fresh = statementName(text);
    named.set(text, fresh);
    prepared++;
    return fresh;
  };

  (client as unknown as { query: QueryFunction }).query = (...args: unknown[]) => {
    const [text, values, callback] = args;
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
      return query(...args);
    }
    const name = nameFor(text);
    if (name === undefined) return query(...args);
    const forget = (error: unknown) => {
      if ((error as { code?: unknown } | null)?.code === RESULT_TYPE_CHANGED) {
        named.delete(text);
        never.add(text);
      }
    };
    if (typeof callback === 'function') {
      return query({ name, text, values }, (error: unknown, result: unknown) => {
        if (error) forget(error);
        callback(error, result);
      });
    }
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      forget(error);
      throw error;
    });
  };
}
