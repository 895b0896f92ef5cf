/**
 * A service's schema history: its releases, what it has deprecated, and its
 * migrations in the order they apply. All data, so the policy can be checked
 * without a database.
 */
import type { Kysely } from 'kysely';
import type { Operation } from './operations.ts';

/**
 * Holds a migration back until an online data migration has moved every row
 * (Placement's "blocker" migrations): dropping or constraining data that has
 * not been migrated would lose it.
 */
export interface Blocker {
  /** The online migration's name, as `baton db online-migrations` lists it. */
  readonly onlineMigration: string;
  /** How many rows still need the online migration; the migration waits while > 0. */
  // biome-ignore lint/suspicious/noExplicitAny: the service's table types are its own
  remaining(db: Kysely<any>): Promise<number>;
}

/** One schema migration: an id and the operations it applies, in order. */
export interface Migration {
  /** Unique in the set and never reused, e.g. `0003_add_consumer_generation`. */
  readonly id: string;
  /** The release that introduced it (one of the set's `releases`). */
  readonly release: string;
  readonly description: string;
  readonly operations: readonly Operation[];
  /**
   * Accepts the write locks the policy flags (they go in the release notes):
   * why they are acceptable, e.g. "consumers is small and rarely written".
   */
  readonly acknowledgeLocks?: string;
  readonly blockedBy?: Blocker;
}

/**
 * A column or table that the code of `release` still declares but no longer
 * needs (the deprecation). The code of the next release stops using it; the
 * release after that may drop it (the rolling-upgrade doc: one more deprecation period).
 */
export interface Deprecation {
  readonly table: string;
  /** Left out: the whole table. */
  readonly column?: string;
  readonly release: string;
}

/** A service's migrations, oldest first. */
export interface MigrationSet {
  /** The service whose schema this is, e.g. `placement`; a key in the history table. */
  readonly service: string;
  /** Release names, oldest first; the order the policy counts releases in. */
  readonly releases: readonly string[];
  readonly deprecations: readonly Deprecation[];
  /** In the order they apply. */
  readonly migrations: readonly Migration[];
  /**
   * The commands this service's operators run, as the messages that send them there name
   * them; `{db}` stands for the database URL without its password. Default: Baton's own CLI
   * (`baton db upgrade --service <service> --db {db}`, `baton db online-migrations …`).
   */
  readonly commands?: MigrationCommands;
}

/** How a service's operator upgrades its schema and runs its online migrations. */
export interface MigrationCommands {
  readonly upgrade: string;
  readonly onlineMigrations: string;
}
