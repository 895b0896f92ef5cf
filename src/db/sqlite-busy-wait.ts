/**
 * Waiting for SQLite's write lock in short, even steps.
 *
 * SQLite's own busy handler (`busy_timeout`) sleeps between attempts in
 * growing steps, up to 100 ms. Another process committing batches back to
 * back (an online data migration) leaves the lock free for a moment between
 * two batches, and such a sleeper rarely wakes up in it: it starves for
 * seconds. So SQLite's `busy_timeout` stays 0 and this wrapper around the
 * better-sqlite3 handle given to Kysely retries a statement that fails with
 * SQLITE_BUSY every millisecond, until the busy timeout.
 *
 * A statement is retried only where SQLite's own handler waits too: when the
 * connection holds no lock yet, that is outside a transaction (BEGIN
 * IMMEDIATE, an autocommit write) or first in a deferred one. Later in a
 * transaction SQLITE_BUSY is passed on as is: the connection already reads a
 * snapshot, and once another writer commits, waiting cannot help. `pragma busy_timeout`
 * reads and sets this wrapper's timeout, so code that sets it to 0 to poll
 * asynchronously keeps working.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { DatabaseBusyError } from './errors.ts';
import { allRows } from './sqlite-rows.ts';

/**
 * Short enough to catch a gap of two milliseconds between another writer's
 * transactions; waiting costs 4 % of a core (0.5 ms: 10 %).
 */
const RETRY_EVERY_MS = 1;

const DEFERRED_BEGIN = /^\s*begin(?:\s+deferred)?(?:\s+transaction)?\s*;?\s*$/i;
const BUSY_TIMEOUT_PRAGMA = /^\s*pragma\s+(?:main\.)?busy_timeout\s*(?:=\s*(\d+)\s*)?;?\s*$/i;

/**
 * Statements kept prepared, by text: preparing a wide SELECT costs as much as running it, and
 * a service repeats a few hundred texts. Past the bound the oldest is dropped.
 */
const PREPARED_STATEMENTS = 500;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** better-sqlite3 is synchronous: SQLite's own handler blocks the thread the same way. */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export class BusyWaitingSqlite implements SqliteDatabase {
  readonly #handle: BetterSqlite3.Database;
  #timeoutMs: number;
  /** A deferred BEGIN ran and no statement since: the transaction holds no lock yet. */
  #lockless = false;
  readonly #prepared = new Map<string, BetterSqlite3.Statement>();

  constructor(handle: BetterSqlite3.Database, timeoutMs: number) {
    handle.pragma('busy_timeout = 0');
    this.#handle = handle;
    this.#timeoutMs = timeoutMs;
  }

  get busyTimeoutMs(): number {
    return this.#timeoutMs;
  }

  close(): void {
    this.#handle.close();
  }

  prepare(text: string): SqliteStatement {
    const pragma = BUSY_TIMEOUT_PRAGMA.exec(text);
    if (pragma) return this.#busyTimeoutPragma(pragma[1]);
    const statement = this.#statement(text);
    const begins = DEFERRED_BEGIN.test(text);
    const executed = <T>(attempt: () => T): T => {
      try {
        return this.#retried(attempt);
      } finally {
        this.#lockless = begins && this.#handle.inTransaction;
      }
    };
    return {
      reader: statement.reader,
      all: (parameters) => executed(() => allRows(statement, parameters)),
      run: (parameters) => executed(() => statement.run(...parameters)),
      // An iterated statement stays busy until its last row: it gets one of its own.
      iterate: (parameters) =>
        this.#iterate(
          this.#retried(() => this.#handle.prepare(text)),
          parameters,
          executed,
        ),
    };
  }

  /** The statement of `text`, prepared once and kept (the most recently used ones). */
  #statement(text: string): BetterSqlite3.Statement {
    let statement = this.#prepared.get(text);
    if (statement === undefined) {
      statement = this.#retried(() => this.#handle.prepare(text));
      if (this.#prepared.size >= PREPARED_STATEMENTS) {
        this.#prepared.delete(this.#prepared.keys().next().value as string);
      }
    } else {
      this.#prepared.delete(text);
    }
    this.#prepared.set(text, statement);
    return statement;
  }

  /** Runs `attempt`, again and again while it meets SQLITE_BUSY and the connection holds no lock. */
  #retried<T>(attempt: () => T): T {
    if (this.#handle.inTransaction && !this.#lockless) return attempt();
    const deadline = performance.now() + this.#timeoutMs;
    for (;;) {
      try {
        return attempt();
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (performance.now() >= deadline) {
          const code = (error as { code: string }).code;
          throw new DatabaseBusyError(this.#handle.name, this.#timeoutMs, code, error);
        }
        sleepSync(RETRY_EVERY_MS);
      }
    }
  }

  /** SQLITE_BUSY comes with the first row, so the first step is the one retried. */
  *#iterate(
    statement: BetterSqlite3.Statement,
    parameters: readonly unknown[],
    executed: <T>(attempt: () => T) => T,
  ): IterableIterator<unknown> {
    const [rows, first] = executed(() => {
      const iterator = statement.iterate(...parameters);
      return [iterator, iterator.next()] as const;
    });
    if (first.done) return;
    yield first.value;
    yield* rows;
  }

  #busyTimeoutPragma(value: string | undefined): SqliteStatement {
    if (value !== undefined) this.#timeoutMs = Number(value);
    const rows = () => [{ timeout: this.#timeoutMs }];
    return {
      reader: true,
      all: rows,
      run: () => ({ changes: 0, lastInsertRowid: 0 }),
      iterate: () => rows()[Symbol.iterator](),
    };
  }
}
