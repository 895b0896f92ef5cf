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

import { sql } from 'kysely';
import type { Capabilities } from '../capabilities.ts';
import type { Database } from '../connect.ts';
import { expectedChecksum, operationsChecksum } from './checksum.ts';
import { constraintName, type DdlStep } from './ddl-compiler.ts';
import {
  MigrationBlockedError,
  MigrationChecksumError,
  MigrationError,
  MigrationLockTimeoutError,
  MigrationPolicyError,
  MigrationStepError,
} from './errors.ts';
import {
  ensureHistoryTable,
  readSchemaHistory,
  recordProgress,
  type SchemaHistoryRow,
} from './history.ts';
import { alreadyApplied } from './introspect.ts';
import type { Migration, MigrationSet } from './migration.ts';
import { LockTimeout, type MigrationSession, withMigrationLock } from './migration-lock.ts';
import type { Operation } from './operations.ts';
import { type MigrationPlan, planMigration } from './plan.ts';
import { checkPolicy, type LockWarning, policyViolations } from './policy.ts';
import { rebuildWithForeignKey } from './sqlite-rebuild.ts';

export interface MigrateOptions {
  /** How long to wait for another process's run to finish (default 10 minutes). */
  readonly lockTimeoutMs?: number;
}

export interface AppliedMigration {
  readonly id: string;
  readonly release: string;
  /** The policy's lock warnings that apply to this backend (for the operator and release notes). */
  readonly lockWarnings: readonly LockWarning[];
}

export interface MigrationResultSet {
  /** Applied by this call, in order. */
  readonly applied: readonly AppliedMigration[];
  /** Found applied already (by an earlier run, or by a concurrent one holding the lock first). */
  readonly alreadyApplied: number;
  readonly error?: MigrationError;
}

function describe(operation: Operation): string {
  switch (operation.op) {
    case 'renameTable':
      return `renameTable ${operation.from}`;
    case 'sql':
      return 'sql';
    case 'createIndex':
      return `createIndex ${operation.name}`;
    default:
      return `${operation.op} ${operation.table}`;
  }
}

function foreignKeyName(operation: Operation): string {
  return operation.op === 'addForeignKey'
    ? (operation.name ?? constraintName(operation.table, operation.columns, 'fkey'))
    : '';
}

async function runStep(session: MigrationSession, step: DdlStep): Promise<void> {
  if (step.kind === 'rebuild-with-foreign-key') {
    await rebuildWithForeignKey(session.db, step.table, step.constraint);
    return;
  }
  for (const statement of step.statements) await sql.raw(statement).execute(session.db);
}

interface Attempt {
  readonly caps: Capabilities;
  readonly session: MigrationSession;
  readonly service: string;
  readonly migration: Migration;
  readonly plan: MigrationPlan;
  /** The row of an earlier, interrupted attempt. */
  readonly earlier: SchemaHistoryRow | undefined;
}

async function applyMigration(attempt: Attempt): Promise<void> {
  const { caps, session, service, migration, plan, earlier } = attempt;
  const backend = caps.backend;
  const base = { service, id: migration.id, release: migration.release };
  let rowExists = earlier !== undefined;
  const record = (stepsDone: number, finished: boolean) => {
    const operations = finished ? migration.operations : migration.operations.slice(0, stepsDone);
    const checksum = operationsChecksum(operations);
    return recordProgress(session.db, { ...base, checksum, stepsDone, finished }, rowExists);
  };
  let done = earlier?.stepsDone ?? 0;
  // Only a non-transactional step right after an earlier attempt's recorded
  // progress may have run without being recorded (the process died in between).
  const uncertainStep = earlier?.stepsDone;
  if (!plan.atomic && !rowExists) {
    // Mark it as started: a crash from here on leaves a row a re-run resumes from.
    await record(0, false);
    rowExists = true;
  }
  const segments = plan.segments.filter((s) => s.steps.some((step) => step.operation >= done));
  if (segments.length === 0) {
    await record(done, true);
    return;
  }
  for (const [i, segment] of segments.entries()) {
    const steps = segment.steps.filter((step) => step.operation >= done);
    const end = (steps.at(-1)?.operation ?? done - 1) + 1;
    const run = async () => {
      for (const step of steps) {
        const operation = migration.operations[step.operation] as Operation;
        try {
          const uncertain = !segment.transactional && step.operation === uncertainStep;
          if (
            uncertain &&
            (await alreadyApplied(session.db, backend, operation, foreignKeyName(operation)))
          ) {
            continue;
          }
          await runStep(session, step);
        } catch (error) {
          const kept = segment.transactional ? done : step.operation;
          throw new MigrationStepError(
            service,
            migration.id,
            step.operation,
            describe(operation),
            kept,
            error,
          );
        }
      }
      const finished = i === segments.length - 1;
      await record(end, finished);
      rowExists = true;
    };
    if (!segment.transactional) await run();
    else {
      try {
        await session.atomically(run);
      } catch (error) {
        if (error instanceof MigrationStepError) throw error;
        // The commit itself failed (on SQLite, the foreign key check before it).
        const last = end - 1;
        throw new MigrationStepError(service, migration.id, last, 'commit', done, error);
      }
    }
    done = end;
  }
}

function asMigrationError(service: string, error: unknown): MigrationError {
  if (error instanceof MigrationError) return error;
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new MigrationError(service, `migrating service ${service} failed: ${reason}`, {
    cause: error,
  });
}

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
        for (const migration of set.migrations) {
          const row = history.get(migration.id);
          const checksum = row && expectedChecksum(migration.operations, row);
          if (row && checksum && row.checksum !== checksum) {
            return new MigrationChecksumError(service, migration.id, row.checksum, checksum);
          }
        }
        for (const [index, migration] of set.migrations.entries()) {
          const earlier = history.get(migration.id);
          if (earlier?.appliedAt) {
            alreadyApplied++;
            continue;
          }
          if (migration.blockedBy) {
            const remaining = await migration.blockedBy.remaining(session.db);
            if (remaining > 0) {
              return new MigrationBlockedError(
                service,
                migration.id,
                migration.blockedBy.onlineMigration,
                remaining,
              );
            }
          }
          const plan = plans[index] as MigrationPlan;
          await applyMigration({ caps, session, service, migration, plan, earlier });
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
