/**
 * Opening a database from its URL: a Kysely instance over the backend's
 * driver, its capabilities, and a first round trip so a bad URL, an
 * unreachable server or refused credentials fail here, with one clear line.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { type Capabilities, capabilitiesOf } from './capabilities.ts';
import { type DatabaseUrl, parseDatabaseUrl } from './database-url.ts';
import { DatabaseConnectionError, DatabaseMissingError } from './errors.ts';
import { type PreparedStatementOptions, prepareRepeatedStatements } from './pg-prepared.ts';
import { BusyWaitingSqlite } from './sqlite-busy-wait.ts';
import { SqliteValuesPlugin } from './sqlite-values-plugin.ts';

/** An open database. `DB` is the Kysely schema type of the tables the caller uses. */
export interface Database<DB = Record<string, unknown>> {
  readonly kysely: Kysely<DB>;
  readonly url: DatabaseUrl;
  readonly caps: Capabilities;
  /** Closes the pool (or the SQLite handle); the database is unusable afterwards. */
  close(): Promise<void>;
}

/** How openDatabase opens a database. */
export interface OpenOptions {
  /** Milliseconds a SQLite writer waits for the write lock before failing. */
  readonly busyTimeoutMs?: number;
  /** Pool size for PostgreSQL and MySQL. */
  readonly poolSize?: number;
  /** Milliseconds to wait for a server connection. */
  readonly connectTimeoutMs?: number;
  /**
   * PostgreSQL: name the parameterized statements each connection repeats, so they are
   * parsed (and mostly planned) once per connection (pg-prepared.ts). Not for connections
   * through a pooler that shares server sessions between clients (PgBouncer's transaction
   * mode). Ignored by the other backends.
   */
  readonly preparedStatements?: boolean | PreparedStatementOptions;
  /**
   * SQLite: open only a file that exists (DatabaseMissingError otherwise), creating neither
   * the file nor its directory. For commands that only read.
   */
  readonly mustExist?: boolean;
}

/** Turns a driver error into a short reason (the drivers' messages vary and may be empty). */
function reasonOf(error: unknown): string {
  const e = error as { code?: string; message?: string; errno?: number };
  switch (e?.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the server running?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case '28P01':
    case '28000':
    case 'ER_ACCESS_DENIED_ERROR':
      return 'authentication failed (user or password refused)';
    case '3D000':
    case 'ER_BAD_DB_ERROR':
      return 'the database does not exist';
    case 'SQLITE_CANTOPEN':
      return 'cannot open the file';
  }
  const message = e?.message?.split('\n')[0] || String(error);
  return message;
}

function sqliteKysely<DB>(path: string, options: OpenOptions): Kysely<DB> {
  if (path !== ':memory:' && !options.mustExist) mkdirSync(dirname(path), { recursive: true });
  const handle = new SqliteDatabase(path, { fileMustExist: options.mustExist === true });
  handle.pragma('journal_mode = WAL');
  handle.pragma('foreign_keys = ON');
  handle.pragma('synchronous = NORMAL');
  // Waits for the write lock in even short steps rather than SQLite's growing ones.
  const database = new BusyWaitingSqlite(handle, options.busyTimeoutMs ?? 10_000);
  return new Kysely<DB>({
    dialect: new SqliteDialect({ database }),
    plugins: [new SqliteValuesPlugin()],
  });
}

/**
 * Opens the database a URL names (SQLite, PostgreSQL or MySQL/MariaDB) with the settings the
 * toolkit relies on, and learns what the server can do (its capabilities).
 */
export async function openDatabase<DB = Record<string, unknown>>(
  urlText: string,
  options: OpenOptions = {},
): Promise<Database<DB>> {
  const url = parseDatabaseUrl(urlText);
  if (options.mustExist && url.path !== undefined && url.path !== ':memory:') {
    if (!existsSync(url.path)) throw new DatabaseMissingError(url.redacted, url.path);
  }
  let kysely: Kysely<DB>;
  try {
    if (url.backend === 'sqlite') {
      kysely = sqliteKysely<DB>(url.path as string, options);
    } else if (url.backend === 'postgresql') {
      // Each server driver is loaded when its backend is opened: pg and mysql2 cost ~0.1 s of
      // CPU each to load, which every process on SQLite (baton up's four) would pay for nothing.
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({
        connectionString: url.connectionString,
        max: options.poolSize ?? 10,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      });
      // An idle client that loses its server must not crash the process.
      pool.on('error', () => {});
      // Nor one that is checked out (the pool drops its own listener then): Kysely holds a
      // client through a transaction, and a server that stops between two of its queries makes
      // the client emit 'error' with nobody listening. Its next query fails instead ("not
      // queryable": a 503), and the pool discards it on release.
      pool.on('connect', (client) => client.on('error', () => {}));
      const prepared = options.preparedStatements;
      if (prepared) {
        const settings = prepared === true ? {} : prepared;
        pool.on('connect', (client) => prepareRepeatedStatements(client, settings));
      }
      kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    } else {
      const { createPool: createMysqlPool } = await import('mysql2');
      const pool = createMysqlPool({
        ...url.mysql,
        connectionLimit: options.poolSize ?? 10,
        connectTimeout: options.connectTimeoutMs ?? 5_000,
        // Generations and counts come back as numbers, dates as Date objects.
        supportBigNumbers: true,
        dateStrings: false,
        // DATETIME has no zone: write and read it as UTC whatever the host's zone.
        timezone: 'Z',
      });
      kysely = new Kysely<DB>({ dialect: new MysqlDialect({ pool }) });
    }
  } catch (error) {
    throw new DatabaseConnectionError(url.redacted, reasonOf(error));
  }
  try {
    await sql`select 1`.execute(kysely);
  } catch (error) {
    await kysely.destroy().catch(() => {});
    throw new DatabaseConnectionError(url.redacted, reasonOf(error));
  }
  return {
    kysely,
    url,
    caps: capabilitiesOf(url.backend),
    close: () => kysely.destroy(),
  };
}
