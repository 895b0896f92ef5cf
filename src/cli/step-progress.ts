/**
 * The progress of `baton db upgrade`, step by step (a step is one operation of a migration:
 * a table, a column, an index, a backfill). A single DDL statement reports nothing while it
 * runs, so what can be shown is which step runs and for how long: on a terminal a bar per
 * migration over its steps, naming the step running; elsewhere a line per migration, then,
 * for a step still running after a few seconds (an index built on a big table, a backfill),
 * a line every few seconds and one when it ends. Quick steps print nothing.
 */
import { SingleBar } from 'cli-progress';
import type { MigrationStepEvent } from '../db/index.ts';
import { formatDuration, type ProgressEnv } from './progress-env.ts';

export interface StepReporter {
  readonly onStep: (event: MigrationStepEvent) => void;
  readonly stop: () => void;
}

const stepName = (e: MigrationStepEvent) =>
  `${e.migration}: step ${e.step} of ${e.steps} (${e.operation})`;

function lineReporter(env: ProgressEnv, out: (line: string) => void): StepReporter {
  let migration: string | undefined;
  let startedAt = 0;
  let cancel = () => {};
  return {
    onStep: (event) => {
      if (event.migration !== migration) {
        migration = event.migration;
        out(`${event.migration} (${event.release}): ${event.steps} steps`);
      }
      if (event.phase === 'start') {
        startedAt = env.now();
        cancel = env.every(env.intervalMs, () => {
          out(`${stepName(event)} running for ${formatDuration(env.now() - startedAt)}`);
        });
        return;
      }
      cancel();
      const took = env.now() - startedAt;
      if (took >= env.intervalMs) out(`${stepName(event)} done in ${formatDuration(took)}`);
    },
    stop: () => cancel(),
  };
}

function barReporter(env: ProgressEnv): StepReporter {
  const bar = new SingleBar({
    format: '{migration} [{bar}] step {value}/{total} {operation}',
    hideCursor: true,
    stream: env.stream,
  });
  let migration: string | undefined;
  return {
    onStep: (event) => {
      if (event.migration !== migration) {
        if (migration !== undefined) bar.stop();
        migration = event.migration;
        bar.start(event.steps, event.step - 1, { migration: event.migration, operation: '' });
      }
      const value = event.phase === 'done' ? event.step : event.step - 1;
      bar.update(value, { operation: event.phase === 'start' ? event.operation : '' });
    },
    stop: () => {
      if (migration !== undefined) bar.stop();
    },
  };
}

export function stepReporter(env: ProgressEnv, out: (line: string) => void): StepReporter {
  return env.tty ? barReporter(env) : lineReporter(env, out);
}
