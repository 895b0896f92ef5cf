/** The database layer: the public surface of src/db. */
export { type Capabilities, capabilitiesOf } from './capabilities.ts';
export { type Database, type OpenOptions, openDatabase } from './connect.ts';
export {
  type Backend,
  type DatabaseUrl,
  DatabaseUrlError,
  defaultDatabaseUrl,
  type MysqlTarget,
  parseDatabaseUrl,
  redactUrl,
} from './database-url.ts';
export {
  DEADLOCK_ATTEMPTS,
  type DeadlockRetryOptions,
  inRetriedTransaction,
  isDeadlock,
  retryOnDeadlock,
} from './deadlock-retry.ts';
export { isDuplicateKeyError } from './duplicate-key.ts';
export {
  ConcurrentUpdateError,
  DatabaseBusyError,
  DatabaseConnectionError,
  DatabaseError,
  DatabaseMissingError,
} from './errors.ts';
export { withExplicitZeroIds } from './explicit-ids.ts';
export { bumpGeneration, type GenerationUpdate } from './generation.ts';
export {
  type InsertRow,
  insertOneOrIgnore,
  insertOrIgnore,
  type UniqueKey,
} from './insert-or-ignore.ts';
export * from './migrations/index.ts';
export * from './object-versions/index.ts';
export * from './online-migrations/index.ts';
export type { PreparedStatementOptions } from './pg-prepared.ts';
export * from './services/index.ts';
export { type Executor, inTransaction } from './transaction.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export * from './upgrade-check/index.ts';
