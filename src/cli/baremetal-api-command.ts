/**
 * `baton baremetal api`: runs the bare metal API in the foreground until SIGTERM or SIGINT,
 * then drains (health check failed for `[api] drain_wait` seconds, then no new connections,
 * requests in flight answered; docs/baremetal.md, "API tier") and exits 0. Settings come from
 * the defaults, then `--config-file`, then the flags (one per option of the file, made from
 * BAREMETAL_API_OPTIONS: `--host` and `--port` are where it listens); the service's composition
 * root (baremetal/service.ts) plans the process and resolves the pin. With `[api] api_workers`
 * above 1, that many processes share the port. Bad flags, settings or an unknown pin exit 64;
 * a database that cannot serve, a peer too new, a port taken, or an invalid release mapping
 * exit 1.
 */
import { BAREMETAL_API_OPTIONS } from '../baremetal/config-options.ts';
import {
  BAREMETAL_SERVICE,
  type BaremetalApiProcess,
  type BaremetalPlan,
  planBaremetal,
  startBaremetalApi,
} from '../baremetal/service.ts';
import { BAREMETAL_API_BINARY, BAREMETAL_SERVICE_VERSION } from '../baremetal/service-version.ts';
import { DatabaseConnectionError, DatabaseUrlError, SchemaNotCurrentError } from '../db/index.ts';
import { InvalidReleaseMappingError, UnknownReleaseError } from '../releases/index.ts';
import { RpcConfigError } from '../rpc/index.ts';
import {
  ConfigFileError,
  isWorkerProcess,
  leaveCluster,
  type ServiceDefinition,
  ServiceTooOldError,
  superviseWorkers,
  waitForStopSignal,
} from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { configFlagValues } from './config-flags.ts';
import type { ServeIo } from './placement-serve-command.ts';

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
    return await planBaremetal({ configFile: options.configFile, flags }, service);
  } catch (error) {
    if (
      error instanceof ConfigFileError ||
      error instanceof UnknownReleaseError ||
      error instanceof DatabaseUrlError ||
      error instanceof RpcConfigError
    ) {
      throw usageError(error.message);
    }
    if (error instanceof InvalidReleaseMappingError) throw new CliExit(error.message, EXIT.failure);
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
    if (
      error instanceof SchemaNotCurrentError ||
      error instanceof DatabaseConnectionError ||
      error instanceof ServiceTooOldError
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

/** `service` is the bare metal definition; a test may hand a broken one to see start refuse it. */
export async function baremetalApi(
  options: BaremetalApiOptions,
  io: ServeIo,
  service: ServiceDefinition = BAREMETAL_SERVICE,
): Promise<number> {
  const planned = await plan(options, service);
  const stopped = io.stopped ?? waitForStopSignal;
  const workers = planned.config.api.apiWorkers;
  if (workers > 1 && !isWorkerProcess()) {
    const clean = await superviseWorkers(BAREMETAL_API_BINARY, workers, io, stopped);
    return clean ? EXIT.ok : EXIT.failure;
  }
  const server = await start(planned, io);
  const { caps, config } = planned;
  io.out(
    `${BAREMETAL_API_BINARY} listening on ${server.url} (service version ${BAREMETAL_SERVICE_VERSION}, API 1.1 to ${caps.apiMax}, pinned to ${caps.release ?? 'nothing'})`,
  );
  const signal = await stopped();
  io.out(
    `${BAREMETAL_API_BINARY} stopping (${signal}): health check failed for ${config.api.drainWait} s, then finishing requests in flight`,
  );
  await server.stop();
  io.out(`${BAREMETAL_API_BINARY} stopped`);
  leaveCluster();
  return EXIT.ok;
}
