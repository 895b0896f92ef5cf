/** Errors of the online data migrations: usage errors thrown, run errors carried in reports. */

/** A count option given on the command line that is not a positive integer. */
export class OnlineMigrationUsageError extends Error {
  override name = 'OnlineMigrationUsageError';
  readonly option: string;
  readonly value: unknown;
  constructor(option: string, value: unknown, expected = 'a positive integer') {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    super(`${option} must be ${expected}, got ${shown}`);
    this.option = option;
    this.value = value;
  }
}

export class InvalidMaxCountError extends OnlineMigrationUsageError {
  override name = 'InvalidMaxCountError';
  constructor(value: unknown) {
    super('max-count', value);
  }
}

export class InvalidBatchSizeError extends OnlineMigrationUsageError {
  override name = 'InvalidBatchSizeError';
  constructor(value: unknown) {
    super('batch-size', value);
  }
}

export class InvalidBatchPauseError extends OnlineMigrationUsageError {
  override name = 'InvalidBatchPauseError';
  constructor(value: unknown) {
    super('batch-pause-ms', value, 'a non-negative integer');
  }
}

/** A registry that cannot be built: duplicate or empty names, bad requirements. */
export class OnlineMigrationRegistryError extends Error {
  override name = 'OnlineMigrationRegistryError';
}

/** A migration broke its contract: counts that are not non-negative integers, or more than asked. */
export class MigrationResultError extends Error {
  override name = 'MigrationResultError';
  readonly migration: string;
  readonly result: unknown;
  constructor(migration: string, result: unknown, reason: string) {
    super(`${migration} returned ${JSON.stringify(result)}: ${reason}`);
    this.migration = migration;
    this.result = result;
  }
}

/** A migration says rows remain but migrated none of them: running again would not help. */
export class NoProgressError extends Error {
  override name = 'NoProgressError';
  readonly migration: string;
  readonly remaining: number;
  constructor(migration: string, remaining: number) {
    super(`${migration} reports ${remaining} row(s) to migrate but migrated none`);
    this.migration = migration;
    this.remaining = remaining;
  }
}

/** One row could not be brought to the latest version (an unknown or newer version, bad data). */
export class RowMigrationError extends Error {
  override name = 'RowMigrationError';
  readonly table: string;
  readonly id: unknown;
  readonly version: string | null;
  constructor(table: string, id: unknown, version: string | null, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${table} row ${String(id)} (version ${version ?? 'NULL'}): ${reason}`, { cause });
    this.table = table;
    this.id = id;
    this.version = version;
  }
}

/** A value the default column encoder cannot store; the table needs its own `toColumns`. */
export class ColumnEncodingError extends Error {
  override name = 'ColumnEncodingError';
  readonly table: string;
  readonly column: string;
  constructor(table: string, column: string, kind: string) {
    super(
      `${table}.${column}: cannot store a ${kind} by default; give the table a toColumns encoder`,
    );
    this.table = table;
    this.column = column;
  }
}
