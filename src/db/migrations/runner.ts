/**
 * Brings a database's schema up to a migration set. Like kysely's
 * `Migrator.migrateToLatest()`, it never throws: it returns what it applied,
 * and the error that stopped it. Before anything runs, the whole set must
 * pass the policy and every operation must compile for the backend; under
 * the migration lock, an applied migration whose operations changed stops
 * the run. Then each pending migration runs in order: blocked ones stop the
 * run (earlier ones stay applied), the others run segment by segment with
 * their progress recorded (see plan.ts), so an interrupted run resumes.
 */

import type { Database } from '../connect.ts';
import { applyMigration, type MigrationStepEvent } from './apply-migration.ts';
import { expectedChecksum } from './checksum.ts';
import {
  MigrationBlockedError,
  MigrationChecksumError,
  MigrationError,
  MigrationLockTimeoutError,
  MigrationOrderError,
  MigrationPolicyError,
} from './errors.ts';
import { ensureHistoryTable, readSchemaHistory } from './history.ts';
import type { Migration, MigrationSet } from './migration.ts';
import { LockTimeout, type MigrationSession, withMigrationLock } from './migration-lock.ts';
import { type MigrationPlan, planMigration } from './plan.ts';
import { checkPolicy, type LockWarning, policyViolations } from './policy.ts';

/** How migrateToLatest runs. */
export interface MigrateOptions {
  /** How long to wait for another process's run to finish (default 10 minutes). */
  readonly lockTimeoutMs?: number;
  /** Called as each step (operation) of a pending migration starts and ends. */
  readonly onStep?: (event: MigrationStepEvent) => void;
}

/** A migration migrateToLatest applied, and how long it took. */
export interface AppliedMigration {
  readonly id: string;
  readonly release: string;
  /** The policy's lock warnings that apply to this backend (for the operator and release notes). */
  readonly lockWarnings: readonly LockWarning[];
}

/** What migrateToLatest did. */
export interface MigrationResultSet {
  /** Applied by this call, in order. */
  readonly applied: readonly AppliedMigration[];
  /** Found applied already (by an earlier run, or by a concurrent one holding the lock first). */
  readonly alreadyApplied: number;
  readonly error?: MigrationError;
}

async function blockerRemaining(
  service: string,
  migration: Migration,
  session: MigrationSession,
): Promise<number> {
  const blocker = migration.blockedBy as NonNullable<Migration['blockedBy']>;
  try {
    return await blocker.remaining(session.db);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const message = `migration ${migration.id} of service ${service}: cannot tell whether online migration '${blocker.onlineMigration}' is done: ${reason}`;
    throw new MigrationError(service, message, { cause: error });
  }
}

function asMigrationError(service: string, error: unknown): MigrationError {
  if (error instanceof MigrationError) return error;
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new MigrationError(service, `migrating service ${service} failed: ${reason}`, {
    cause: error,
  });
}

/**
 * Applies the migrations the database has not run yet, in order, recording each in the history
 * table; one process at a time runs them.
 */
export async function migrateToLatest<DB>(
  database: Database<DB>,
  set: MigrationSet,
  options: MigrateOptions = {},
): Promise<MigrationResultSet> {
  const service = set.service;
  const applied: AppliedMigration[] = [];
  let alreadyApplied = 0;
  const policy = checkPolicy(set);
  if (!policy.ok) {
    return {
      applied,
      alreadyApplied,
      error: new MigrationPolicyError(service, policyViolations(policy)),
    };
  }
  const caps = database.caps;
  const plans: MigrationPlan[] = [];
  for (const migration of set.migrations) {
    try {
      plans.push(planMigration(migration, caps));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `migration ${migration.id} of service ${service} cannot run on ${caps.backend}: ${reason}; nothing was run`;
      return {
        applied,
        alreadyApplied,
        error: new MigrationError(service, message, { cause: error }),
      };
    }
  }
  const timeoutMs = options.lockTimeoutMs ?? 600_000;
  try {
    const error = await withMigrationLock(database, timeoutMs, async (session) => {
      try {
        await ensureHistoryTable(session.db, caps.backend);
        const history = new Map(
          (await readSchemaHistory(session.db, caps.backend, service)).map((r) => [r.id, r]),
        );
        let pending: string | undefined;
        for (const migration of set.migrations) {
          const row = history.get(migration.id);
          const checksum = row && expectedChecksum(migration.operations, row);
          if (row && checksum && row.checksum !== checksum) {
            return new MigrationChecksumError(service, migration.id, row.checksum, checksum);
          }
          // The history is append-only: a migration slipped in before an applied one
          // was written for a schema that no longer exists.
          if (row?.appliedAt && pending !== undefined) {
            return new MigrationOrderError(service, pending, migration.id);
          }
          if (!row?.appliedAt) pending ??= migration.id;
        }
        for (const [index, migration] of set.migrations.entries()) {
          const earlier = history.get(migration.id);
          if (earlier?.appliedAt) {
            alreadyApplied++;
            continue;
          }
          if (migration.blockedBy) {
            const remaining = await blockerRemaining(service, migration, session);
            if (remaining > 0) {
              return new MigrationBlockedError(
                service,
                migration.id,
                migration.blockedBy.onlineMigration,
                remaining,
                set.commands,
              );
            }
          }
          const plan = plans[index] as MigrationPlan;
          await applyMigration({
            caps,
            session,
            service,
            migration,
            plan,
            earlier,
            onStep: options.onStep,
            appliedBy: codeReleaseOf(set),
          });
          const lockWarnings = (policy.migrations[index]?.lockWarnings ?? []).filter((w) =>
            w.backends.includes(caps.backend),
          );
          applied.push({ id: migration.id, release: migration.release, lockWarnings });
        }
        return undefined;
      } catch (error) {
        // Returned, not thrown: what was applied before the error stays committed.
        return asMigrationError(service, error);
      }
    });
    return error ? { applied, alreadyApplied, error } : { applied, alreadyApplied };
  } catch (error) {
    const failure =
      error instanceof LockTimeout
        ? new MigrationLockTimeoutError(service, timeoutMs)
        : asMigrationError(service, error);
    return { applied, alreadyApplied, error: failure };
  }
}

/** The release of the code a migration set is: that of the newest migration it knows. */
export function codeReleaseOf(set: MigrationSet): string {
  return set.migrations.at(-1)?.release ?? set.releases.at(-1) ?? '';
}
