/**
 * `baton baremetal conductor`: runs a bare metal conductor in the foreground until SIGTERM or
 * SIGINT, then stops as docs/baremetal.md ("Conductor", shutdown) describes and exits 0.
 * Settings come from the defaults, then `--config-file`, then the flags (one per option of the
 * file, made from BAREMETAL_OPTIONS); the service's composition root (baremetal/service.ts)
 * plans the process and resolves the pin. Bad flags, settings or an unknown pin exit 64; a
 * database that cannot serve, a peer too new, or an invalid release mapping exit 1.
 */

import { ConductorDriversError } from '../baremetal/conductor/conductor-process.ts';
import { BAREMETAL_OPTIONS } from '../baremetal/config-file.ts';
import {
  BAREMETAL_SERVICE,
  type BaremetalPlan,
  planBaremetal,
  startBaremetalConductor,
} from '../baremetal/service.ts';
import {
  BAREMETAL_CONDUCTOR_BINARY,
  BAREMETAL_SERVICE_VERSION,
} from '../baremetal/service-version.ts';
import { DatabaseConnectionError, DatabaseUrlError, SchemaNotCurrentError } from '../db/index.ts';
import {
  describeCapsSource,
  InvalidReleaseMappingError,
  UnknownReleaseError,
} from '../releases/index.ts';
import { RpcConfigError } from '../rpc/index.ts';
import {
  ConfigFileError,
  holdReloadSignals,
  RowsUnreadableError,
  type ServiceDefinition,
  ServiceTooOldError,
  waitForStopSignal,
} from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { configFlagValues, deprecatedFlagsUsed } from './config-flags.ts';
import type { ServeIo } from './placement-serve-command.ts';
import { reloadOnSighup } from './reload-on-sighup.ts';

export interface BaremetalConductorOptions {
  readonly configFile?: string;
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
}

async function plan(
  options: BaremetalConductorOptions,
  service: ServiceDefinition,
): Promise<BaremetalPlan> {
  const flags = configFlagValues(BAREMETAL_OPTIONS, options);
  try {
    return await planBaremetal({ configFile: options.configFile, flags }, service);
  } catch (error) {
    if (
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

/** `service` is the bare metal definition; a test may hand a broken one to see start refuse it. */
export async function baremetalConductor(
  options: BaremetalConductorOptions,
  io: ServeIo,
  service: ServiceDefinition = BAREMETAL_SERVICE,
): Promise<number> {
  // Both before anything else: a SIGHUP during the start waits for the process to serve
  // instead of ending it, and a stop during the start (registration included) is a clean stop
  // right after it, which takes the services row offline.
  holdReloadSignals();
  const stopping = (io.stopped ?? waitForStopSignal)();
  const planned = await plan(options, service);
  for (const warning of [
    ...(planned.warnings ?? []),
    ...deprecatedFlagsUsed(BAREMETAL_OPTIONS, options),
  ]) {
    io.err(`baton: warning: ${warning}\n`);
  }
  const name = BAREMETAL_CONDUCTOR_BINARY;
  let running: Awaited<ReturnType<typeof startBaremetalConductor>>;
  try {
    // The conductor's own lines go to the process's log ([DEFAULT] log options).
    running = await startBaremetalConductor(planned);
  } catch (error) {
    // The rows' verdict, as the database tools give it: 2, with what to run.
    if (error instanceof RowsUnreadableError) throw new CliExit(error.message, EXIT.incompatible);
    // The real conductor exits 1 too when its hardware cannot be loaded.
    if (
      error instanceof SchemaNotCurrentError ||
      error instanceof DatabaseConnectionError ||
      error instanceof ServiceTooOldError ||
      error instanceof ConductorDriversError
    ) {
      throw new CliExit(error.message, EXIT.failure);
    }
    throw error;
  }
  const { config } = planned;
  const caps = running.caps;
  io.out(
    `${name} ${config.conductor.host} serving topic ironic.conductor_manager over ${config.rpc.rpc_transport ?? 'http'} ` +
      `(service version ${BAREMETAL_SERVICE_VERSION}, caps in force: ${describeCapsSource(caps)}, RPC cap ${caps.rpcCap ?? 'none'})` +
      (running.metricsUrl === undefined
        ? ''
        : `; metrics and health check on ${running.metricsUrl}`),
  );
  const stopReload = reloadOnSighup(name, io, async () =>
    running.reload(await plan(options, service)),
  );
  const signal = await stopping;
  stopReload();
  io.out(`${name} stopping (${signal}): offline now, finishing the work in flight`);
  const clean = await running.stop();
  io.out(
    clean ? `${name} stopped` : `${name} stopped; work still running was left to the takeover`,
  );
  return EXIT.ok;
}
