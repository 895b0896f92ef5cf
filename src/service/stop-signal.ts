/** How a service process is asked to stop: SIGTERM (a supervisor) or SIGINT (Ctrl-C). */

export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** Resolves with the name of the first stop signal received. */
export function waitForStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    // The handlers stay: a second signal (Ctrl-C reaches every worker and then the primary
    // forwards SIGTERM) must not cut the requests in flight.
    const stop = (signal: string) => resolve(signal);
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
}
