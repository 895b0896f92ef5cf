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
  checkBaremetalRpcAuth,
  httpBasicAuthenticator,
  planBaremetal,
  startBaremetalApi,
} from '../baremetal/service.ts';
import { BAREMETAL_API_BINARY, BAREMETAL_SERVICE_VERSION } from '../baremetal/service-version.ts';
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
import { stoppedLine, stoppingLine } from './placement-serve-command.ts';
import { runInForeground, type ServeIo } from './serve-foreground.ts';
import { SERVICE_SUMMARIES } from './service-catalog.ts';

export interface BaremetalApiOptions extends ConfigFlags {
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
}

async function plan(
  options: BaremetalApiOptions,
  service: ServiceDefinition,
  warn: (message: string) => void,
): Promise<BaremetalPlan> {
  const flags = configFlagValues(BAREMETAL_API_OPTIONS, options);
  const found = await commandConfigFiles(
    service.configProject,
    BAREMETAL_API_BINARY,
    options,
    warn,
  );
  try {
    const planned = await planBaremetal({ configFiles: found.files, flags }, service);
    checkBaremetalApiAuth(planned.config);
    checkBaremetalRpcAuth(planned.config, 'api');
    // http_basic's user file: readable and bcrypt only, as ironic-lib wants it at start.
    const { api } = planned.config;
    if (api.authStrategy === 'http_basic') await httpBasicAuthenticator(api.httpBasicAuthUserFile);
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
export function baremetalApi(
  options: BaremetalApiOptions,
  io: ServeIo,
  service: ServiceDefinition = BAREMETAL_SERVICE,
): Promise<number> {
  // The config files' unknown settings, as the last plan found them (said once, at start).
  let unknown: string[] = [];
  return runInForeground<BaremetalPlan, BaremetalApiProcess>(
    {
      binary: BAREMETAL_API_BINARY,
      plan: () => {
        unknown = [];
        return plan(options, service, (message) => unknown.push(message));
      },
      warnings: (planned) => [
        ...unknown,
        ...(planned.warnings ?? []),
        ...deprecatedFlagsUsed(BAREMETAL_API_OPTIONS, options),
      ],
      pool: (planned) => ({
        workers: planned.config.api.apiWorkers,
        operations: planned.config.operations,
      }),
      listensOn: ({ config }) => `${config.api.hostIp}:${config.api.port}`,
      start: (planned, logSink) =>
        startBaremetalApi(planned, {
          ...(logSink === undefined ? {} : { logSink }),
          // Placement's processes beside, when they share the database (`baton up`).
          dashboardOthers: Object.values(SERVICE_SUMMARIES).filter(
            (other) => other.name !== service.name,
          ),
        }),
      servingLine: (server, planned) =>
        `${BAREMETAL_API_BINARY} listening on ${server.url} (service version ${BAREMETAL_SERVICE_VERSION}, API 1.1 to ${server.apiMax()}, caps in force: ${describeCapsSource(server.caps)})` +
        (server.metricsUrl === undefined
          ? ''
          : `; metrics and health check on ${server.metricsUrl}`) +
        `; dashboard on ${server.url}/dashboard (loopback clients only${planned.config.api.authStrategy === 'keystone' ? ', with an admin token' : ''})`,
      reload: (server, next) => server.reload(next),
      stoppingLine: (signal, planned) =>
        stoppingLine(BAREMETAL_API_BINARY, signal, planned.config.operations),
      stop: async (server) => {
        const outcome = await server.stop();
        return {
          line: stoppedLine(BAREMETAL_API_BINARY, outcome),
          status: outcome.timedOut ? EXIT.failure : EXIT.ok,
        };
      },
    },
    io,
  );
}
