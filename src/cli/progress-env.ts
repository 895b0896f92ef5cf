/**
 * Where and how long-running commands show progress. On a terminal they draw a progress bar
 * (cli-progress) on stderr; otherwise (a log, a pipe, a supervisor's journal) they print a
 * summary line every `intervalMs` instead of one per batch. The clock, the pause and the
 * repeating timer are injectable: tests drive them by hand and never time anything.
 */

export interface ProgressEnv {
  /** A terminal: bars; otherwise summary lines. */
  readonly tty: boolean;
  /** Where bars draw. */
  readonly stream: NodeJS.WritableStream;
  /** Milliseconds, monotonic. */
  readonly now: () => number;
  /** Waits between batches. */
  readonly sleep: (ms: number) => Promise<void>;
  /** Calls `tick` every `ms` until the returned function is called (a long step's heartbeat). */
  readonly every: (ms: number, tick: () => void) => () => void;
  /** How often a summary line is printed when not on a terminal. */
  readonly intervalMs: number;
}

/** Summary lines every 5 seconds: often enough to see a run move, rare enough for a log. */
export const SUMMARY_INTERVAL_MS = 5_000;

export function processProgressEnv(stream: NodeJS.WriteStream = process.stderr): ProgressEnv {
  return {
    tty: stream.isTTY === true,
    stream,
    now: () => performance.now(),
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    every: (ms, tick) => {
      const timer = setInterval(tick, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
    intervalMs: SUMMARY_INTERVAL_MS,
  };
}

const count = new Intl.NumberFormat('en-US');

/** `12,000` */
export function formatCount(n: number): string {
  return count.format(Math.round(n));
}

/** `850 ms`, `37 s`, `4 min 10 s`, `2 h 5 min` */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s} s`;
  if (s < 3_600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3_600)} h ${Math.floor((s % 3_600) / 60)} min`;
}
