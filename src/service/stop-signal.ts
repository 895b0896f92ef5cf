/** How a service process is asked to stop: SIGTERM (a supervisor) or SIGINT (Ctrl-C). */

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Set to `1` by `baton up` for its children, whose stdin is then a pipe from it: the pipe ends
 * when `baton up` ends, however it ends (SIGKILL included, which it cannot forward), and the
 * child stops as on SIGTERM instead of serving on with no one to stop it.
 */
export const STOP_WITH_PARENT_ENV = 'BATON_STOP_WITH_PARENT';

/** What `waitForStopSignal` resolves with when the parent went away. */
export const PARENT_GONE = 'parent ended';

/**
 * Where bin/baton.mjs records a stop signal that came while the code still loaded (a serving
 * command catches SIGTERM and SIGINT from its first line, as it does SIGHUP): Ctrl-C during the
 * start is then a stop right after it, exit 0, rather than Node's default death by the signal
 * (exit 130). A global symbol, since the recorder is plain JavaScript loaded before this module.
 */
export const EARLY_STOP_SIGNAL = Symbol.for('baton.earlyStopSignal');

/** The stop signal recorded before the command's own handlers were installed, if any. */
export function earlyStopSignal(): string | undefined {
  const recorded = (globalThis as Record<symbol, unknown>)[EARLY_STOP_SIGNAL];
  return typeof recorded === 'string' ? recorded : undefined;
}

/** Resolves with the name of the first stop signal received (or PARENT_GONE). */
export function waitForStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    // The handlers stay: a second signal (Ctrl-C reaches every worker and then the primary
    // forwards SIGTERM) must not cut the requests in flight.
    const stop = (signal: string) => resolve(signal);
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
    const early = earlyStopSignal();
    if (early !== undefined) stop(early);
    if (process.env[STOP_WITH_PARENT_ENV] === '1') {
      const stdin = process.stdin;
      stdin.once('end', () => stop(PARENT_GONE));
      stdin.once('error', () => stop(PARENT_GONE));
      stdin.resume();
      // With the parent gone, so is the reader of stdout: the lines said while stopping must
      // not end the process (EPIPE) before it leaves the services table.
      process.stdout.on('error', () => {});
      // Watching the pipe must not keep the process alive once it has stopped serving.
      (stdin as { unref?: () => void }).unref?.();
    }
  });
}
