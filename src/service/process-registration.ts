/**
 * A service process in the services table (the service-version spec): before it serves, it compares its
 * service version with its live peers' (too far behind: it refuses to start; behind at
 * all: it warns); once it serves, it registers and heartbeats until it leaves.
 */
import { checkStartup, type Database, registerService, type ServiceCaps } from '../db/index.ts';
import { workerQualifiedHost } from './workers.ts';

/** How a binary of a service names itself and how far behind its peers it may run. */
export interface ProcessIdentity {
  readonly binary: string;
  /** The service version of this code (a positive integer). */
  readonly version: number;
  /** How many service versions behind its oldest live peer a starting process may be. */
  readonly supportedSpan: number;
}

/** Refused to start: another live process of the binary runs a version too new for this code. */
export class ServiceTooOldError extends Error {
  override name = 'ServiceTooOldError';
}

/** Throws ServiceTooOldError when the process must not start; warns when it is behind. */
export async function checkPeerVersions(
  db: Database,
  identity: ProcessIdentity,
  warn: (message: string) => void,
): Promise<void> {
  const startup = await checkStartup(db, identity);
  if (!startup.ok) throw new ServiceTooOldError(startup.refuse);
  if (startup.warn) warn(startup.warn);
}

/** A process registered in the services table. */
export interface ProcessRegistration {
  /** Stops the heartbeats and removes the row (a clean stop). */
  leave(): Promise<void>;
}

/** How registerProcess registers. */
export interface RegisterProcessOptions {
  /** Seconds between heartbeats (default: the services table's). */
  readonly heartbeatSeconds?: number | undefined;
  /** Told when a heartbeat fails (the next one may succeed). */
  readonly warn: (message: string) => void;
  /** The pin and caps in force, recorded in the row for `baton upgrade plan` and the dashboard. */
  readonly caps?: () => ServiceCaps;
}

/**
 * Registers the process under (binary, host) and keeps its row fresh. `host` must tell
 * apart the processes of one binary on one machine (`name:port`); the workers of a pool
 * sharing that port are told apart here (`name:port/worker-K`, see workerQualifiedHost).
 */
export async function registerProcess(
  db: Database,
  process: { readonly binary: string; readonly host: string; readonly version: number },
  options: RegisterProcessOptions,
): Promise<ProcessRegistration> {
  const registration = await registerService(db, {
    ...process,
    host: workerQualifiedHost(process.host),
    ...(options.caps === undefined ? {} : { caps: options.caps }),
  });
  const stopHeartbeats = registration.startHeartbeats({
    ...(options.heartbeatSeconds === undefined
      ? {}
      : { intervalSeconds: options.heartbeatSeconds }),
    onError: (error) => options.warn(`heartbeat failed: ${(error as Error).message}`),
  });
  return {
    async leave() {
      stopHeartbeats();
      await registration.deregister();
    },
  };
}
