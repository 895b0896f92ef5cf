/**
 * An online data migration (the rolling-upgrade doc): moves or backfills data while the
 * services keep running. `run(ctx, maxCount)` migrates at most `maxCount`
 * rows and returns `{ total, migrated }`: the rows that needed migrating
 * when the call started, and the rows it migrated. It must be idempotent
 * (select by what still needs doing, typically the `version` column), so an
 * interrupted run is finished by running again.
 */
import type { Kysely } from 'kysely';
import type { Capabilities } from '../capabilities.ts';

/** What an online migration reports of its rows: how many need it, and how many it did. */
export interface MigrationCount {
  readonly total: number;
  readonly migrated: number;
}

/** The service-version spec: a migration that must wait until every live `binary` runs `minServiceVersion` or newer. */
export interface ServiceRequirement {
  readonly binary: string;
  readonly minServiceVersion: number;
}

/**
 * What a batch of an online migration is given: its transaction, the database's capabilities,
 * the service, and what the previous batch left.
 */
export interface OnlineMigrationContext {
  /** The batch's transaction: what one call writes commits or rolls back together. */
  // biome-ignore lint/suspicious/noExplicitAny: migrations name tables of their own service
  readonly db: Kysely<any>;
  readonly caps: Capabilities;
  /** The service whose registry is running. */
  readonly service: string;
  /**
   * What the previous batch of this run left to do (its `total - migrated`); undefined on
   * a migration's first batch. A migration may report a total from it instead of counting
   * again (`totalAfterBatch`): counting what is left costs a scan of it per batch, which on
   * a big table costs more than the batch itself, and on SQLite holds the one write lock.
   */
  readonly remainingEstimate?: number;
}

/**
 * The total a batch reports when it did not count: a batch that found fewer rows than it
 * was asked for has left nothing behind it; a full one reports at least one more row, so
 * the runner calls again and the next batch (finding nothing, or the rows older services
 * wrote meanwhile) decides. "Done" is therefore never reported on an estimate alone.
 */
export function totalAfterBatch(estimate: number, asked: number, migrated: number): number {
  if (migrated < asked) return migrated;
  return migrated + Math.max(1, estimate - migrated);
}

/** A data migration that runs while the service serves, in batches, until no row needs it. */
export interface OnlineMigration {
  /** Stable name, shown to operators (snake_case, like Ironic's). */
  readonly name: string;
  /** One line: what it does. */
  readonly description: string;
  readonly requires?: ServiceRequirement | readonly ServiceRequirement[];
  /** Migrates at most `maxCount` (>= 1) rows. */
  run(ctx: OnlineMigrationContext, maxCount: number): Promise<MigrationCount>;
}

export function requirementsOf(migration: OnlineMigration): readonly ServiceRequirement[] {
  const requires = migration.requires;
  if (requires === undefined) return [];
  return Array.isArray(requires) ? requires : [requires as ServiceRequirement];
}
