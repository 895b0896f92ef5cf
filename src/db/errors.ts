/** Errors of the database layer, each a one-line message safe to show (no password). */

export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

/** The database cannot be opened: unreachable, refused credentials, missing database, bad file. */
export class DatabaseConnectionError extends DatabaseError {
  override name = 'DatabaseConnectionError';
  readonly url: string;
  readonly reason: string;
  constructor(redactedUrl: string, reason: string) {
    super(`cannot open database ${redactedUrl}: ${reason}`);
    this.url = redactedUrl;
    this.reason = reason;
  }
}

/** A SQLite database opened to be read only (`mustExist`) has no file: nothing was created. */
export class DatabaseMissingError extends DatabaseError {
  override name = 'DatabaseMissingError';
  readonly url: string;
  readonly path: string;
  constructor(redactedUrl: string, path: string) {
    super(`database file ${path} does not exist`);
    this.url = redactedUrl;
    this.path = path;
  }
}

/** An optimistic-concurrency check lost: another writer changed the row first. */
export class ConcurrentUpdateError extends DatabaseError {
  override name = 'ConcurrentUpdateError';
  readonly table: string;
  readonly id: unknown;
  readonly expectedGeneration: number;
  constructor(table: string, id: unknown, expectedGeneration: number) {
    super(
      `${table} ${String(id)} was changed by another writer (expected generation ${expectedGeneration})`,
    );
    this.table = table;
    this.id = id;
    this.expectedGeneration = expectedGeneration;
  }
}

/** SQLite's write lock stayed with another connection for longer than the busy timeout. */
export class DatabaseBusyError extends DatabaseError {
  override name = 'DatabaseBusyError';
  /** The SQLite code, `SQLITE_BUSY` (or an extended one), as callers may test it. */
  readonly code: string;
  readonly timeoutMs: number;
  constructor(file: string, timeoutMs: number, code: string, cause: unknown) {
    super(
      `database ${file} is locked: another connection kept its write lock for more than the busy timeout (${timeoutMs} ms)`,
      { cause },
    );
    this.code = code;
    this.timeoutMs = timeoutMs;
  }
}
