/**
 * A running Placement API: the database prepared (schema created on an empty database, an
 * outdated one refused with the command that upgrades it), the policy loaded, the app
 * listening at the caps in force, and the process registered in the services table with
 * heartbeats so `baton db services` and `baton upgrade-check` see it. close() stops
 * accepting, lets in-flight requests finish, deregisters and closes the database.
 * The caps come from the composition root (service.ts), which resolved the pin.
 */

import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { KeystoneAuthenticator } from '../auth/keystone-authenticator.ts';
import type { Database } from '../db/index.ts';
import { type CapsInForce, capsInForce, describeCapsSource, LiveCaps } from '../releases/index.ts';
import { type DrainOutcome, HttpDrain } from '../service/http/http-drain.ts';
import {
  checkPeerVersions,
  followDeployment,
  type LiveDeployment,
  loggingPaths,
  type ProcessRegistration,
  pinOf,
  type ReloadReport,
  registerProcess,
  reloadProcess,
  type ServiceDefinition,
  type ServicesWatch,
} from '../service/index.ts';
import type { ProcessOperations } from '../service/process-operations.ts';
import { buildPlacementApp } from './api/app.ts';
import { checkPlacementAuth } from './auth-settings.ts';
import type { PlacementConfig } from './config.ts';
import { createPolicyEnforcer } from './policy/index.ts';
import {
  PLACEMENT_API_BINARY,
  PLACEMENT_SERVICE_VERSION,
  PLACEMENT_SUPPORTED_SPAN,
} from './service-version.ts';
import { preparePlacementDatabase } from './store/prepare-database.ts';
import { ResourceClassCache } from './store/resource-class-cache.ts';
import type { PlacementTables } from './store/tables.ts';

export interface StartOptions {
  /** Seconds between heartbeats (default: the services module's). */
  readonly heartbeatSeconds?: number;
  /** Warnings worth an operator's eye (an older peer, a failed heartbeat); default: the log. */
  readonly warn?: (message: string) => void;
  readonly poolSize?: number;
  /**
   * The process's logs, health check and metrics (service.ts builds them from the settings);
   * absent, the server logs and counts nothing (tests that start one of their own).
   */
  readonly operations?: ProcessOperations;
  /**
   * The service definition (service.ts): with it, the caps in force follow the services table
   * (the service-version spec) and a deployment too old to talk to refuses the start; without it (tests that
   * start a server of their own), the caps given stay as they are.
   */
  readonly service?: ServiceDefinition;
}

/** The caps given, never refreshed: a server started without its service definition. */
function staticDeployment(caps: CapsInForce | undefined): LiveDeployment {
  const fixed = new LiveCaps(
    caps ?? {
      release: undefined,
      source: { kind: 'latest' },
      apiMax: undefined,
      rpcCap: undefined,
      objectTargets: { objectVersion: (_type, latest) => latest },
    },
  );
  return { caps: fixed, refresh: async () => ({ caps: fixed.current(), changed: false }) };
}

export interface PlacementServer {
  /** `http://host:port` as listening (the real port when 0 was asked). */
  readonly url: string;
  readonly address: AddressInfo;
  /** The caps in force now: the pin, else the oldest live placement-api's release (the service-version spec). */
  readonly caps: CapsInForce;
  /**
   * SIGHUP: the log level from `next` (planned again from the file and flags), the other
   * changed options reported as needing a restart, the caps read again from the services table.
   * Undefined without the process's operations (a server a test started bare).
   */
  reload(next: {
    readonly config: PlacementConfig;
    readonly caps: CapsInForce;
  }): Promise<ReloadReport | undefined>;
  /**
   * The stop (service/http/http-drain.ts): health check DRAINING, `[healthcheck]
   * drain_delay`, the listener closed, requests in flight finished within `[DEFAULT]
   * graceful_shutdown_timeout` (else cut: the outcome counts them), the row left.
   */
  close(): Promise<DrainOutcome>;
}

/**
 * `caps`: the caps in force the composition root resolved (service.ts); absent, nothing is
 * capped (tests that start a server of their own).
 */
export async function startPlacementServer(
  config: PlacementConfig,
  caps?: CapsInForce,
  options: StartOptions = {},
): Promise<PlacementServer> {
  const operations = options.operations;
  // The definition's, when given: what this code reports in the services table.
  const serviceVersion = options.service?.code.serviceVersion ?? PLACEMENT_SERVICE_VERSION;
  const logger = operations?.log.logger;
  const warn =
    options.warn ?? (logger === undefined ? () => {} : (message: string) => logger.warn(message));
  const keystone = checkPlacementAuth(config);
  // Keystone is first asked at the first request: while it is down, requests get 503s.
  const authenticator =
    keystone === undefined ? undefined : await KeystoneAuthenticator.create(keystone);
  const db = await preparePlacementDatabase(config.databaseUrl, { poolSize: options.poolSize });
  let closeDb: Database<PlacementTables> | undefined = db;
  // The services table is not one of Placement's; its module takes any database.
  const shared = db as unknown as Database;
  try {
    const policy = await createPolicyEnforcer(config);
    await checkPeerVersions(
      shared,
      {
        binary: PLACEMENT_API_BINARY,
        version: serviceVersion,
        supportedSpan: PLACEMENT_SUPPORTED_SPAN,
      },
      warn,
    );
    // The caps in force (the service-version spec): a live placement-api older than the previous release
    // refuses the start; without a pin, the oldest live one's release names the caps.
    const service = options.service;
    const deployment: LiveDeployment =
      service === undefined
        ? staticDeployment(caps)
        : await followDeployment(
            shared,
            service,
            caps ?? capsInForce(service.releases, undefined),
            {
              log: { info: (message) => logger?.info(message), warn },
            },
          );
    if (service !== undefined) {
      const setGauges = (value: CapsInForce) =>
        operations?.metrics?.deployment.setCaps(value, service.code);
      setGauges(deployment.caps.current());
      deployment.caps.onUpdate(setGauges);
    }

    // Without the process's operations (tests that start a server of their own): no wait, no bound.
    const drain =
      operations?.drain ?? new HttpDrain({ drainDelaySeconds: 0, gracefulShutdownTimeout: 0 });
    const app = await buildPlacementApp({
      services: { db, config, policy, resourceClasses: new ResourceClassCache() },
      pinnedMax: caps?.apiMax,
      operations: { ...operations?.http, drain },
      authenticator,
    });
    drain.attach(app.server);
    try {
      // The metrics port first: a port in use refuses the start before anything is served.
      await operations?.listenForMetrics();
      await app.listen({
        host: config.host,
        port: config.port,
        // Fastify logs this line when it has a logger (the process's).
        listenTextResolver: (address) => `${PLACEMENT_API_BINARY} listening on ${address}`,
      });
    } catch (error) {
      await operations?.close();
      throw error;
    }
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;

    let registration: ProcessRegistration;
    let watch: ServicesWatch | undefined;
    try {
      registration = await registerProcess(
        shared,
        {
          binary: PLACEMENT_API_BINARY,
          // One row per process: the port tells apart several on one machine.
          host: `${hostname()}:${address.port}`,
          version: serviceVersion,
        },
        { heartbeatSeconds: options.heartbeatSeconds, warn },
      );
      // After registering, so the first read counts this process.
      watch = await operations?.watchServices(shared);
    } catch (error) {
      await app.close();
      await operations?.close();
      throw error;
    }
    closeDb = undefined;
    logger?.info(
      {
        service_version: serviceVersion,
        release: deployment.caps.release ?? 'master',
        caps_source: describeCapsSource(deployment.caps),
        api_max: caps?.apiMax,
      },
      `${PLACEMENT_API_BINARY} serving: caps in force`,
    );

    let closing: Promise<DrainOutcome> | undefined;
    return {
      url,
      address,
      caps: deployment.caps,
      async reload(next) {
        if (operations === undefined) return undefined;
        return reloadProcess(
          { log: operations.log, deployment, watch },
          {
            before: config,
            after: next.config,
            mutable: loggingPaths(),
            logging: next.config,
            pinBefore: caps === undefined ? undefined : pinOf(caps),
            pinAfter: pinOf(next.caps),
          },
        );
      },
      close() {
        closing ??= (async () => {
          // The row stays fresh while the requests in flight finish.
          const outcome = await drain.stop(() => app.close());
          try {
            await registration.leave();
          } finally {
            await operations?.close();
            await db.close();
          }
          logger?.info({ stop_seconds: outcome.seconds }, `${PLACEMENT_API_BINARY} stopped`);
          operations?.log.flush();
          return outcome;
        })();
        return closing;
      },
    };
  } finally {
    await closeDb?.close();
  }
}
