/**
 * Applies one migration under the migration lock, segment by segment (see
 * plan.ts). A transactional segment commits with its progress record; a
 * non-transactional step records its progress right after it, so a run that
 * stopped part-way resumes after the last recorded operation. The checksum
 * recorded part-way covers only the operations applied so far.
 */
import { sql } from 'kysely';
import type { Capabilities } from '../capabilities.ts';
import { operationsChecksum } from './checksum.ts';
import { constraintName, type DdlStep } from './ddl-compiler.ts';
import { MigrationStepError } from './errors.ts';
import { recordProgress, type SchemaHistoryRow } from './history.ts';
import { alreadyApplied } from './introspect.ts';
import type { Migration } from './migration.ts';
import type { MigrationSession } from './migration-lock.ts';
import type { Operation } from './operations.ts';
import type { MigrationPlan } from './plan.ts';
import { rebuildWithForeignKey } from './sqlite-rebuild.ts';

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

/** A step of a migration starting or done, for progress reports (`baton db upgrade`). */
export interface MigrationStepEvent {
  readonly migration: string;
  readonly release: string;
  /** 1 for the migration's first operation. */
  readonly step: number;
  /** Operations in the migration. */
  readonly steps: number;
  /** `createIndex nodes_owner_idx on nodes`, `addColumn nodes`, `sql`… */
  readonly operation: string;
  readonly phase: 'start' | 'done';
}

/** What an event names an operation: an index with its table, the rest as errors name them. */
export function operationLabel(operation: Operation): string {
  return operation.op === 'createIndex'
    ? `${describe(operation)} on ${operation.table}`
    : describe(operation);
}

export interface Attempt {
  readonly caps: Capabilities;
  readonly session: MigrationSession;
  readonly service: string;
  readonly migration: Migration;
  readonly plan: MigrationPlan;
  /** The row of an earlier, interrupted attempt. */
  readonly earlier: SchemaHistoryRow | undefined;
  /** The release of the code applying it (history.ts). */
  readonly appliedBy: string;
  readonly onStep?: ((event: MigrationStepEvent) => void) | undefined;
}

export async function applyMigration(attempt: Attempt): Promise<void> {
  const { caps, session, service, migration, plan, earlier, onStep } = attempt;
  const report = (index: number, phase: MigrationStepEvent['phase']) =>
    onStep?.({
      migration: migration.id,
      release: migration.release,
      step: index + 1,
      steps: migration.operations.length,
      operation: operationLabel(migration.operations[index] as Operation),
      phase,
    });
  const backend = caps.backend;
  const base = {
    service,
    id: migration.id,
    release: migration.release,
    appliedBy: attempt.appliedBy,
  };
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
          report(step.operation, 'start');
          await runStep(session, step);
          report(step.operation, 'done');
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
    if (segment.transactional) {
      try {
        await session.atomically(run);
      } catch (error) {
        if (error instanceof MigrationStepError) throw error;
        // The commit itself failed (on SQLite, the foreign key check before it).
        throw new MigrationStepError(service, migration.id, end - 1, 'commit', done, error);
      }
    } else {
      await run();
    }
    done = end;
  }
}
