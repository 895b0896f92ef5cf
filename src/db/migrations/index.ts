/** Schema migrations: operations as data, the change policy, the runner and the startup check. */
export { type MigrationStepEvent, operationLabel } from './apply-migration.ts';
export { canonicalJson, operationsChecksum } from './checksum.ts';
export { MAX_STRING_LENGTH, sqlTypeOf } from './column-types.ts';
export { compileOperation, type DdlStep, UnsupportedOperationError } from './ddl-compiler.ts';
export { HISTORY_TABLE } from './definition-checks.ts';
export {
  MigrationBlockedError,
  MigrationChecksumError,
  MigrationError,
  MigrationLockTimeoutError,
  MigrationOrderError,
  MigrationPolicyError,
  MigrationStepError,
  schemaUpgradeCommand,
} from './errors.ts';
export { exactCollationOnMariadb } from './exact-collation.ts';
export { readSchemaHistory, type SchemaHistoryRow, schemaHistoryOf } from './history.ts';
export type {
  Blocker,
  Deprecation,
  Migration,
  MigrationCommands,
  MigrationSet,
} from './migration.ts';
export type {
  AddColumn,
  AddForeignKey,
  AlterColumn,
  Column,
  ColumnDefault,
  ColumnType,
  CreateIndex,
  CreateTable,
  DropColumn,
  DropTable,
  ForeignKey,
  ForeignKeyAction,
  Operation,
  RawSql,
  RenameColumn,
  RenameTable,
  UniqueConstraint,
} from './operations.ts';
export { type MigrationPlan, type PlanSegment, planMigration } from './plan.ts';
export {
  checkPolicy,
  type LockWarning,
  type MigrationPolicy,
  type PolicyReport,
  type PolicyRule,
  type PolicyViolation,
  policyViolations,
} from './policy.ts';
export {
  type AppliedMigration,
  type MigrateOptions,
  type MigrationResultSet,
  migrateToLatest,
} from './runner.ts';
export {
  type AssertSchemaOptions,
  assertSchemaCurrent,
  checkSchema,
  SchemaNotCurrentError,
  type SchemaReport,
  type SchemaState,
  SchemaTooNewError,
} from './schema-check.ts';
