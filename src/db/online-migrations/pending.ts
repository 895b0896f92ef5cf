/**
 * How much each migration still has to do, without doing it: each one is
 * called for a single row inside a transaction that is then rolled back, and
 * only the `total` it reports is kept. This needs nothing beyond the
 * `run(ctx, maxCount)` contract, so every migration can be probed. For the
 * upgrade checks; safe while services run (one row locked, briefly).
 */
import type { Database } from '../connect.ts';
import type { LivenessOptions } from '../services/index.ts';
import { inTransaction } from '../transaction.ts';
import { type MigrationCount, requirementsOf } from './online-migration.ts';
import type { OnlineMigrationRegistry } from './registry.ts';
import { unmetRequirement, type WaitingFor } from './service-gate.ts';

/** An online migration that still has rows to migrate. */
export interface PendingMigration {
  readonly name: string;
  readonly description: string;
  /** Rows it would migrate; undefined when the probe failed. */
  readonly pending: number | undefined;
  /** Set when it is gated on services that have not reached the version it needs. */
  readonly waitingFor?: WaitingFor;
  readonly error?: Error;
}

class RollBack extends Error {
  readonly count: MigrationCount;
  constructor(count: MigrationCount) {
    super('probe rolled back');
    this.count = count;
  }
}

/** The online migrations of a registry that still have work, counted on the database. */
export async function findPendingOnlineMigrations(
  db: Database,
  registry: OnlineMigrationRegistry,
  liveness: LivenessOptions = {},
): Promise<PendingMigration[]> {
  const found: PendingMigration[] = [];
  for (const migration of registry.migrations) {
    const base = { name: migration.name, description: migration.description };
    try {
      const waitingFor = await unmetRequirement(db, requirementsOf(migration), liveness);
      const count = await inTransaction(db, async (trx) => {
        const result = await migration.run(
          { db: trx, caps: db.caps, service: registry.service },
          1,
        );
        throw new RollBack(result);
      }).catch((error: unknown) => {
        if (error instanceof RollBack) return error.count;
        throw error;
      });
      found.push({ ...base, pending: Number(count.total), ...(waitingFor ? { waitingFor } : {}) });
    } catch (error) {
      found.push({
        ...base,
        pending: undefined,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
  }
  return found;
}
