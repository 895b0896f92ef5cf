/**
 * `baton baremetal api`: runs the bare metal API in the foreground until SIGTERM or SIGINT,
 * then drains (health check failed for `[healthcheck] drain_delay` seconds, then no new
 * connections, requests in flight answered; docs/operations.md, "Stopping") and exits 0, or 1
 * when `[DEFAULT] graceful_shutdown_timeout` had to cut requests. Settings come from
 * the defaults, then `--config-file`, then the flags (one per option of the file, made from
 * BAREMETAL_API_OPTIONS: `--host` and `--port` are where it listens); the service's composition
 * root (baremetal/service.ts) plans the process and resolves the pin. With `[api] api_workers`
 * above 1, that many processes share the port. Bad flags, settings, an unknown pin or noauth
 * beyond loopback (without `[api] insecure_noauth_on_any_address`) exit 64;
 * a database that cannot serve, a peer too new, a port taken, or an invalid release mapping
 * exit 1.
 */
import { UnsafeListenError } from '../auth/index.ts';
import { BAREMETAL_API_OPTIONS } from '../baremetal/config-options.ts';
import {
  BAREMETAL_SERVICE,
  type BaremetalApiProcess,
  type BaremetalPlan,
  checkBaremetalApiAuth,
  planBaremetal,
  startBaremetalApi,
} from '../baremetal/service.ts';
import { BAREMETAL_API_BINARY, BAREMETAL_SERVICE_VERSION } from '../baremetal/service-version.ts';
import { DatabaseConnectionError, DatabaseUrlError, SchemaNotCurrentError } from '../db/index.ts';
import {
  describeCapsSource,
  InvalidReleaseMappingError,
  UnknownReleaseError,
} from '../releases/index.ts';
import { RpcConfigError } from '../rpc/index.ts';
import {
  ConfigFileError,
  HealthState,
  holdReloadSignals,
  isWorkerProcess,
  leaveCluster,
  RowsUnreadableError,
  type ServiceDefinition,
  ServiceTooOldError,
  superviseWorkers,
  waitForStopSignal,
} from '../service/index.ts';
import { MetricsListenError } from '../service/metrics/metrics-listener.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { configFlagValues, deprecatedFlagsUsed } from './config-flags.ts';
import { type ServeIo, stoppedLine, stoppingLine } from './placement-serve-command.ts';
import { listenPoolMetrics } from './pool-metrics.ts';
import { reloadOnSighup } from './reload-on-sighup.ts';

export interface BaremetalApiOptions {
  readonly configFile?: string;
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
}

async function plan(
  options: BaremetalApiOptions,
  service: ServiceDefinition,
): Promise<BaremetalPlan> {
  const flags = configFlagValues(BAREMETAL_API_OPTIONS, options);
  try {
    const planned = await planBaremetal({ configFile: options.configFile, flags }, service);
    checkBaremetalApiAuth(planned.config);
    return planned;
  } catch (error) {
    if (
      error instanceof UnsafeListenError ||
      error instanceof ConfigFileError ||
      error instanceof DatabaseUrlError ||
      error instanceof RpcConfigError
    ) {
      throw usageError(error.message);
    }
    // The real ironic-api and ironic-conductor exit 1 on a pin they do not know, listing the
    // valid releases (oslo.config's choices); so do these.
    if (error instanceof InvalidReleaseMappingError || error instanceof UnknownReleaseError)
      throw new CliExit(error.message, EXIT.failure);
    throw error;
  }
}

async function start(planned: BaremetalPlan, io: ServeIo): Promise<BaremetalApiProcess> {
  const { api } = planned.config;
  try {
    return await startBaremetalApi(planned, {
      warn: (message) => io.err(`baton: warning: ${message}\n`),
    });
  } catch (error) {
    // The rows' verdict, as the database tools give it: 2, with what to run.
    if (error instanceof RowsUnreadableError) throw new CliExit(error.message, EXIT.incompatible);
    if (
      error instanceof SchemaNotCurrentError ||
      error instanceof DatabaseConnectionError ||
      error instanceof ServiceTooOldError ||
      error instanceof MetricsListenError
    ) {
      throw new CliExit(error.message, EXIT.failure);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CliExit(`cannot listen on ${api.hostIp}:${api.port}: ${code}`, EXIT.failure);
    }
    throw error;
  }
}

/**
 * The primary of a pool (`[api] api_workers` above 1) serves nothing itself; with `[metrics]
 * bind_port` it answers one scrape for all its workers, and its health check turns to
 * DRAINING when it is asked to stop (as Placement's pool does).
 */
async function superviseWithPoolMetrics(
  planned: BaremetalPlan,
  io: ServeIo,
  stopped: () => Promise<string>,
): Promise<number> {
  const config = planned.config.operations;
  const health = new HealthState(config);
  const listener = await listenPoolMetrics(config, health, BAREMETAL_API_BINARY, io.out);
  try {
    const workers = planned.config.api.apiWorkers;
    const clean = await superviseWorkers(BAREMETAL_API_BINARY, workers, io, async () => {
      const signal = await stopped();
      health.startDraining();
      return signal;
    });
    return clean ? EXIT.ok : EXIT.failure;
  } finally {
    await listener?.close();
  }
}

/** `service` is the bare metal definition; a test may hand a broken one to see start refuse it. */
export async function baremetalApi(
  options: BaremetalApiOptions,
  io: ServeIo,
  service: ServiceDefinition = BAREMETAL_SERVICE,
): Promise<number> {
  // Both before anything else: a SIGHUP during the start waits for the process to serve
  // instead of ending it, and a stop during the start (registration included) is a clean stop
  // right after it, which takes the services row offline.
  holdReloadSignals();
  const stopping = (io.stopped ?? waitForStopSignal)();
  const stopped = () => stopping;
  const planned = await plan(options, service);
  // Once for a pool: its workers run this command too.
  const warnings = isWorkerProcess()
    ? []
    : [...(planned.warnings ?? []), ...deprecatedFlagsUsed(BAREMETAL_API_OPTIONS, options)];
  for (const warning of warnings) io.err(`baton: warning: ${warning}\n`);
  const workers = planned.config.api.apiWorkers;
  if (workers > 1 && !isWorkerProcess()) return superviseWithPoolMetrics(planned, io, stopped);
  const server = await start(planned, io);
  const { config } = planned;
  const caps = server.caps;
  io.out(
    `${BAREMETAL_API_BINARY} listening on ${server.url} (service version ${BAREMETAL_SERVICE_VERSION}, API 1.1 to ${caps.apiMax}, caps in force: ${describeCapsSource(caps)})` +
      (server.metricsUrl === undefined
        ? ''
        : `; metrics and health check on ${server.metricsUrl}`) +
      `; dashboard on ${server.url}/dashboard (loopback clients only)`,
  );
  const stopReload = reloadOnSighup(BAREMETAL_API_BINARY, io, async () =>
    server.reload(await plan(options, service)),
  );
  const signal = await stopped();
  stopReload();
  io.out(stoppingLine(BAREMETAL_API_BINARY, signal, config.operations));
  const outcome = await server.stop();
  io.out(stoppedLine(BAREMETAL_API_BINARY, outcome));
  leaveCluster();
  return outcome.timedOut ? EXIT.failure : EXIT.ok;
}
