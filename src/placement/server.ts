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
import type { CapsInForce } from '../releases/index.ts';
import { checkPeerVersions, type ProcessRegistration, registerProcess } from '../service/index.ts';
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
  /** Warnings worth an operator's eye (an older peer, a failed heartbeat). */
  readonly warn?: (message: string) => void;
  readonly poolSize?: number;
}

export interface PlacementServer {
  /** `http://host:port` as listening (the real port when 0 was asked). */
  readonly url: string;
  readonly address: AddressInfo;
  close(): Promise<void>;
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
  const warn = options.warn ?? (() => {});
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
        version: PLACEMENT_SERVICE_VERSION,
        supportedSpan: PLACEMENT_SUPPORTED_SPAN,
      },
      warn,
    );

    const app = await buildPlacementApp({
      services: { db, config, policy, resourceClasses: new ResourceClassCache() },
      pinnedMax: caps?.apiMax,
      authenticator,
    });
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;

    let registration: ProcessRegistration;
    try {
      registration = await registerProcess(
        shared,
        {
          binary: PLACEMENT_API_BINARY,
          // One row per process: the port tells apart several on one machine.
          host: `${hostname()}:${address.port}`,
          version: PLACEMENT_SERVICE_VERSION,
        },
        { heartbeatSeconds: options.heartbeatSeconds, warn },
      );
    } catch (error) {
      await app.close();
      throw error;
    }
    closeDb = undefined;

    let closing: Promise<void> | undefined;
    return {
      url,
      address,
      close() {
        closing ??= (async () => {
          // Stops accepting and waits for the requests in flight (the row stays fresh meanwhile).
          await app.close();
          try {
            await registration.leave();
          } finally {
            await db.close();
          }
        })();
        return closing;
      },
    };
  } finally {
    await closeDb?.close();
  }
}
