/**
 * `baton baremetal conductor`: runs a bare metal conductor in the foreground until SIGTERM or
 * SIGINT, then stops as docs/baremetal.md ("Conductor", shutdown) describes and exits 0.
 * Settings come from the defaults, then `--config-file`, then the flags (one per option of the
 * file, made from BAREMETAL_OPTIONS); the service's composition root (baremetal/service.ts)
 * plans the process and resolves the pin. Bad flags, settings (an RPC auth that checks nothing
 * on a non-loopback address among them) or an unknown pin exit 64; a
 * database that cannot serve, a peer too new, or an invalid release mapping exit 1.
 */

import { UnsafeListenError } from '../auth/index.ts';
import { BAREMETAL_OPTIONS } from '../baremetal/config-file.ts';
import {
  BAREMETAL_SERVICE,
  type BaremetalConductorProcess,
  type BaremetalPlan,
  checkBaremetalRpcAuth,
  planBaremetal,
  startBaremetalConductor,
} from '../baremetal/service.ts';
import {
  BAREMETAL_CONDUCTOR_BINARY,
  BAREMETAL_SERVICE_VERSION,
} from '../baremetal/service-version.ts';
import { DatabaseUrlError } from '../db/index.ts';
import {
  describeCapsSource,
  InvalidReleaseMappingError,
  UnknownReleaseError,
} from '../releases/index.ts';
import { RpcConfigError } from '../rpc/index.ts';
import { ConfigFileError, type ServiceDefinition } from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type ConfigFlags, commandConfigFiles } from './config-files.ts';
import { configFlagValues, deprecatedFlagsUsed } from './config-flags.ts';
import { runInForeground, type ServeIo } from './serve-foreground.ts';

export interface BaremetalConductorOptions extends ConfigFlags {
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
}

async function plan(
  options: BaremetalConductorOptions,
  service: ServiceDefinition,
  warn: (message: string) => void,
): Promise<BaremetalPlan> {
  const flags = configFlagValues(BAREMETAL_OPTIONS, options);
  const found = await commandConfigFiles(
    service.configProject,
    BAREMETAL_CONDUCTOR_BINARY,
    options,
    warn,
  );
  try {
    const planned = await planBaremetal({ configFiles: found.files, flags }, service);
    // A conductor whose RPC nobody authenticates listens on loopback only.
    checkBaremetalRpcAuth(planned.config, 'conductor');
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

/** `service` is the bare metal definition; a test may hand a broken one to see start refuse it. */
export function baremetalConductor(
  options: BaremetalConductorOptions,
  io: ServeIo,
  service: ServiceDefinition = BAREMETAL_SERVICE,
): Promise<number> {
  const name = BAREMETAL_CONDUCTOR_BINARY;
  // The config files' unknown settings, as the last plan found them (said once, at start).
  let unknown: string[] = [];
  return runInForeground<BaremetalPlan, BaremetalConductorProcess>(
    {
      binary: name,
      plan: () => {
        unknown = [];
        return plan(options, service, (message) => unknown.push(message));
      },
      warnings: (planned) => [
        ...unknown,
        ...(planned.warnings ?? []),
        ...deprecatedFlagsUsed(BAREMETAL_OPTIONS, options),
      ],
      // The conductor's own lines go to the process's log ([DEFAULT] log options).
      start: (planned, logSink) =>
        startBaremetalConductor(planned, logSink === undefined ? {} : { logSink }),
      servingLine: (running, { config }) =>
        `${name} ${config.conductor.host} serving topic ironic.conductor_manager over ${config.rpc.rpc_transport ?? 'http'} ` +
        `(service version ${BAREMETAL_SERVICE_VERSION}, caps in force: ${describeCapsSource(running.caps)}, RPC cap ${running.caps.rpcCap ?? 'none'})` +
        (running.metricsUrl === undefined
          ? ''
          : `; metrics and health check on ${running.metricsUrl}`),
      reload: (running, next) => running.reload(next),
      stoppingLine: (signal) =>
        `${name} stopping (${signal}): offline now, finishing the work in flight`,
      stop: async (running) => ({
        line: (await running.stop())
          ? `${name} stopped`
          : `${name} stopped; work still running was left to the takeover`,
        status: EXIT.ok,
      }),
    },
    io,
  );
}
