/**
 * The progress of `baton db online-migrations`: a bar per migration on a terminal; elsewhere
 * a summary line every few seconds (rows done of the total, rate, ETA) and one when a
 * migration finishes, never a line per batch.
 */
import { SingleBar } from 'cli-progress';
import type { BatchProgress } from '../db/index.ts';
import { formatCount, formatDuration, type ProgressEnv } from './progress-env.ts';

export interface BatchReporter {
  readonly onBatch: (progress: BatchProgress) => void;
  readonly stop: () => void;
}

/** The migration being run, as the summary lines count it. */
interface Current {
  readonly name: string;
  readonly startedAt: number;
  done: number;
  remaining: number;
}

/** `create_incomplete_consumers: 1,200 of 5,000 rows (24%), 310 rows/s, ETA 12 s` */
export function summaryLine(current: Current, now: number): string {
  const elapsed = Math.max(now - current.startedAt, 1);
  const rate = (current.done * 1_000) / elapsed;
  // Rows old services write meanwhile join the count: the total is what is done plus what is left.
  const total = current.done + current.remaining;
  const percent = total === 0 ? 100 : Math.floor((current.done * 100) / total);
  const eta = rate > 0 ? formatDuration((current.remaining / rate) * 1_000) : 'unknown';
  return `${current.name}: ${formatCount(current.done)} of ${formatCount(total)} rows (${percent}%), ${formatCount(rate)} rows/s, ETA ${eta}`;
}

function summaryReporter(env: ProgressEnv, out: (line: string) => void): BatchReporter {
  let current: Current | undefined;
  // A migration starts when the one before it ended (or the run began).
  let since = env.now();
  let lastLine = since;
  const finish = (now: number) => {
    if (current === undefined) return;
    if (current.done > 0 && current.remaining === 0) {
      const elapsed = Math.max(now - current.startedAt, 1);
      out(
        `${current.name}: done, ${formatCount(current.done)} rows in ${formatDuration(elapsed)} (${formatCount((current.done * 1_000) / elapsed)} rows/s)`,
      );
    }
    current = undefined;
  };
  return {
    onBatch: (p) => {
      const now = env.now();
      if (current?.name !== p.migration) {
        finish(now);
        current = { name: p.migration, startedAt: since, done: 0, remaining: p.total };
      }
      current.done += p.migrated;
      current.remaining = Math.max(0, p.total - p.migrated);
      if (current.remaining === 0) {
        finish(now);
        since = now;
        lastLine = now;
      } else if (now - lastLine >= env.intervalMs) {
        out(summaryLine(current, now));
        lastLine = now;
      }
    },
    stop: () => finish(env.now()),
  };
}

function barReporter(env: ProgressEnv): BatchReporter {
  const bar = new SingleBar({
    format: '{migration} [{bar}] {value}/{total} rows | {percentage}% | ETA: {eta_formatted}',
    hideCursor: true,
    stream: env.stream,
  });
  let current: string | undefined;
  let done = 0;
  return {
    onBatch: (p) => {
      if (p.migration !== current) {
        if (current !== undefined) bar.stop();
        current = undefined;
        // Nothing to migrate: no bar (the table says so).
        if (p.total === 0) return;
        current = p.migration;
        done = 0;
        bar.start(Math.max(p.total, 1), 0, { migration: p.migration });
      }
      done += p.migrated;
      bar.update(done, { migration: p.migration });
    },
    stop: () => {
      if (current !== undefined) bar.stop();
    },
  };
}

export function batchReporter(env: ProgressEnv, out: (line: string) => void): BatchReporter {
  return env.tty ? barReporter(env) : summaryReporter(env, out);
}
