/**
 * How a migration runs on a backend: its operations compiled, and grouped
 * into segments. A transactional segment commits its operations together
 * with the progress record; a non-transactional one is a single operation
 * (every operation on MariaDB, whose DDL commits implicitly; a concurrent
 * index build on PostgreSQL) whose progress is recorded right after it. Pure.
 */
import type { Capabilities } from '../capabilities.ts';
import { compileOperation, type DdlStep } from './ddl-compiler.ts';
import type { Migration } from './migration.ts';

/** A run of DDL steps applied together, in one transaction where the backend allows it. */
export interface PlanSegment {
  readonly transactional: boolean;
  readonly steps: readonly DdlStep[];
}

/** The DDL a migration compiles to on one backend. */
export interface MigrationPlan {
  readonly steps: readonly DdlStep[];
  readonly segments: readonly PlanSegment[];
  /** One transaction holds everything: the migration is applied whole or not at all. */
  readonly atomic: boolean;
}

/** Compiles a migration's operations to the DDL steps of the database's backend. */
export function planMigration(migration: Migration, caps: Capabilities): MigrationPlan {
  const createdHere = new Set(
    migration.operations.flatMap((o) => (o.op === 'createTable' ? [o.table] : [])),
  );
  const steps = migration.operations.map((operation, index) =>
    compileOperation(operation, index, caps.backend, createdHere),
  );
  const segments: PlanSegment[] = [];
  let open: DdlStep[] | undefined;
  for (const step of steps) {
    const transactional =
      caps.transactionalDdl && !(step.kind === 'sql' && step.outsideTransaction);
    if (!transactional) {
      open = undefined;
      segments.push({ transactional: false, steps: [step] });
    } else if (open) {
      open.push(step);
    } else {
      open = [step];
      segments.push({ transactional: true, steps: open });
    }
  }
  const atomic =
    segments.length === 0 || (segments.length === 1 && segments[0]?.transactional === true);
  return { steps, segments, atomic };
}
