/** Online data migrations (the rolling-upgrade doc), gated on service versions (the service-version spec). */
export { defaultColumnValues } from './column-values.ts';
export {
  checkBatchPause,
  checkBatchSize,
  checkMaxCount,
  DEFAULT_BATCH_SIZE,
  parseMaxCount,
  SINGLE_WRITER_BATCH_PAUSE_MS,
} from './counts.ts';
export {
  ColumnEncodingError,
  InvalidBatchPauseError,
  InvalidBatchSizeError,
  InvalidMaxCountError,
  MigrationResultError,
  NoProgressError,
  OnlineMigrationRegistryError,
  OnlineMigrationUsageError,
  RowMigrationError,
} from './errors.ts';
export type {
  MigrationCount,
  OnlineMigration,
  OnlineMigrationContext,
  ServiceRequirement,
} from './online-migration.ts';
export { totalAfterBatch } from './online-migration.ts';
export { findPendingOnlineMigrations, type PendingMigration } from './pending.ts';
export {
  createOnlineMigrationRegistry,
  type OnlineMigrationRegistry,
  type RegistryDefinition,
} from './registry.ts';
export {
  type MigrationReport,
  type MigrationStatus,
  ONLINE_MIGRATIONS_EXIT_STATUS,
  type OnlineMigrationsReport,
  type RunOutcome,
} from './report.ts';
export { onlineMigrationsVerdict, renderOnlineMigrationsReport } from './report-text.ts';
export { type BatchProgress, type RunOptions, runOnlineMigrations } from './runner.ts';
export { type WaitingFor, waitingMessage } from './service-gate.ts';
export {
  UPDATE_TO_LATEST_VERSIONS,
  type UpdateToLatestOptions,
  updateToLatestVersions,
  type VersionedTable,
} from './update-to-latest.ts';
