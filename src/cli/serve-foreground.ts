/**
 * A serving command in the foreground (`baton placement serve`, `baton baremetal api`, `baton
 * baremetal conductor`), one way for all: it listens for SIGTERM/SIGINT and holds SIGHUP before
 * anything else (a stop during the start is a clean stop right after it), plans, prints the
 * plan's warnings, supervises a pool of workers when asked (the primary serves nothing), starts
 * the process (the lifecycle: src/service/process-lifecycle.ts), says where it serves, reloads
 * on SIGHUP, and on a stop signal says what it does, stops and says how it went. Refusals
 * become one line and the documented status: 2 for rows a newer release wrote, 64 for the
 * operator's input, 1 for what keeps the process from serving.
 */
import { UnsafeListenError } from '../auth/errors.ts';
import { ConductorDriversError } from '../baremetal/conductor/conductor-process.ts';
import { DatabaseConnectionError, IdentityInUseError, SchemaNotCurrentError } from '../db/index.ts';
import { PolicyFileError } from '../placement/policy/index.ts';
import {
  HealthState,
  holdReloadSignals,
  isWorkerProcess,
  LogSettingsError,
  leaveCluster,
  type ReloadReport,
  RowsUnreadableError,
  ServiceTooOldError,
  superviseWorkers,
  waitForStopSignal,
} from '../service/index.ts';
import type { LogSink } from '../service/logging/service-logger.ts';
import { MetricsListenError } from '../service/metrics/metrics-listener.ts';
import type { OperationsConfig } from '../service/operations-config.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { listenPoolMetrics } from './pool-metrics.ts';
import { reloadOnSighup } from './reload-on-sighup.ts';

export interface ServeIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGTERM / SIGINT by default). */
  readonly stopped?: () => Promise<string>;
  /** Where the process's log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
}

/** How one serving command plans, starts, speaks and stops. */
export interface Foreground<Plan, Running> {
  readonly binary: string;
  /** The plan from the file and flags (again on SIGHUP); throws CliExit for bad input. */
  plan(): Promise<Plan>;
  /** Warnings for the operator (older option names…), printed once. */
  warnings(plan: Plan): readonly string[];
  /** A pool of workers to supervise instead of serving, when the plan asks for one. */
  pool?(
    plan: Plan,
  ): { readonly workers: number; readonly operations: OperationsConfig } | undefined;
  /** Where it would listen, for the line a port already taken gives. */
  listensOn?(plan: Plan): string;
  start(plan: Plan, logSink: LogSink | undefined): Promise<Running>;
  servingLine(running: Running, plan: Plan): string;
  reload(running: Running, next: Plan): Promise<ReloadReport>;
  stoppingLine(signal: string, plan: Plan): string;
  /** Stops it: the line saying how it went, and the exit status. */
  stop(running: Running): Promise<{ readonly line: string; readonly status: number }>;
}

/** A start's refusal as one line and its status; anything else is unexpected. */
function refusal(error: unknown, listensOn: string | undefined): CliExit | undefined {
  if (error instanceof RowsUnreadableError) return new CliExit(error.message, EXIT.incompatible);
  if (
    error instanceof PolicyFileError ||
    error instanceof LogSettingsError ||
    error instanceof UnsafeListenError
  ) {
    return usageError(error.message);
  }
  if (
    error instanceof SchemaNotCurrentError ||
    error instanceof DatabaseConnectionError ||
    error instanceof ServiceTooOldError ||
    error instanceof IdentityInUseError ||
    error instanceof MetricsListenError ||
    error instanceof ConductorDriversError
  ) {
    return new CliExit(error.message, EXIT.failure);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    return new CliExit(`cannot listen on ${listensOn ?? 'its address'}: ${code}`, EXIT.failure);
  }
  return undefined;
}

/**
 * The primary of a pool serves nothing itself; with `[metrics] bind_port` it answers one
 * scrape for all its workers, and its health check turns to DRAINING when it is asked to stop.
 */
async function supervisePool(
  binary: string,
  pool: { readonly workers: number; readonly operations: OperationsConfig },
  io: ServeIo,
  stopped: () => Promise<string>,
): Promise<number> {
  const health = new HealthState(pool.operations);
  const listener = await listenPoolMetrics(pool.operations, health, binary, io.out);
  try {
    const clean = await superviseWorkers(binary, pool.workers, io, async () => {
      const signal = await stopped();
      health.startDraining();
      return signal;
    });
    return clean ? EXIT.ok : EXIT.failure;
  } finally {
    await listener?.close();
  }
}

export async function runInForeground<Plan, Running>(
  fg: Foreground<Plan, Running>,
  io: ServeIo,
): Promise<number> {
  // Both before anything else: a SIGHUP during the start waits for the process to serve
  // instead of ending it, and a stop during the start (registration included) is a clean
  // stop right after it, which takes the services row offline.
  holdReloadSignals();
  const stopping = (io.stopped ?? waitForStopSignal)();
  const planned = await fg.plan();
  // Once for a pool: its workers run this command too.
  if (!isWorkerProcess())
    for (const warning of fg.warnings(planned)) io.err(`baton: warning: ${warning}\n`);
  const pool = fg.pool?.(planned);
  if (pool !== undefined && pool.workers > 1 && !isWorkerProcess()) {
    return supervisePool(fg.binary, pool, io, () => stopping);
  }
  // A stop asked for while the start is under way (Ctrl-C while the database is opened).
  let stopAsked: string | undefined;
  void stopping.then((signal) => {
    stopAsked = signal;
  });
  let running: Running;
  try {
    running = await fg.start(planned, io.logSink);
  } catch (error) {
    const refused = refusal(error, fg.listensOn?.(planned));
    // The operator asked it to stop before the start failed: an orderly stop, not a failure
    // (the start undid what it did); the reason is still said, on one line.
    if (stopAsked !== undefined && refused !== undefined) {
      io.out(`${fg.binary} stopped during its start (${stopAsked}): ${refused.message}`);
      leaveCluster();
      return EXIT.ok;
    }
    throw refused ?? error;
  }
  io.out(fg.servingLine(running, planned));
  const stopReload = reloadOnSighup(fg.binary, io, async () => fg.reload(running, await fg.plan()));
  const signal = await stopping;
  stopReload();
  io.out(fg.stoppingLine(signal, planned));
  const { line, status } = await fg.stop(running);
  io.out(line);
  leaveCluster();
  return status;
}
