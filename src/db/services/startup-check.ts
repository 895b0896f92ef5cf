/**
 * The service-version spec's "wow, I'm much older than the other conductors, I should log an
 * error and exit": at startup a service compares its version with the oldest
 * live peer of its binary. Older by more than `supportedSpan` versions: refuse
 * to run. Older at all: run, with a warning. Peers are the other live rows of
 * the binary; the process's own row (same host) is not a peer.
 */
import type { Database } from '../connect.ts';
import { checkSeconds, checkServiceVersion, type LivenessOptions, liveSince } from './liveness.ts';
import { ensureServicesTable, SERVICES_TABLE, servicesKysely } from './services-table.ts';

/** What checkStartup checks a starting process against. */
export interface StartupCheckOptions extends LivenessOptions {
  readonly binary: string;
  /** The version of the code starting up. */
  readonly version: number;
  /** This process's host identity, excluded from its peers (optional before registering). */
  readonly host?: string;
  /** How many versions behind the oldest live peer a service may still run. */
  readonly supportedSpan: number;
}

/** Whether a process may start, and why not. */
export interface StartupCheck {
  /** False when the service must not start. */
  readonly ok: boolean;
  readonly refuse?: string;
  readonly warn?: string;
  /** The oldest live peer's version; undefined when there is no live peer. */
  readonly oldestPeerVersion?: number;
}

/**
 * Checks, before a process starts, that the live services' versions allow it (the service-version
 * spec's start check).
 */
export async function checkStartup(
  db: Database,
  options: StartupCheckOptions,
): Promise<StartupCheck> {
  checkServiceVersion(options.version);
  checkSeconds('supportedSpan', options.supportedSpan);
  const since = liveSince(options);
  await ensureServicesTable(db);
  let query = servicesKysely(db)
    .selectFrom(SERVICES_TABLE)
    .select((eb) => eb.fn.min('version').as('minimum'))
    .where('binary', '=', options.binary)
    .where('last_seen', '>=', since);
  if (options.host !== undefined) query = query.where('host', '<>', options.host);
  const minimum = (await query.executeTakeFirst())?.minimum;
  if (minimum === null || minimum === undefined) return { ok: true };
  const oldestPeerVersion = Number(minimum);
  const behind = oldestPeerVersion - options.version;
  const { binary, version } = options;
  if (behind > options.supportedSpan) {
    return {
      ok: false,
      oldestPeerVersion,
      refuse:
        `${binary} service version ${version} is too old to run: the oldest live ${binary} ` +
        `runs version ${oldestPeerVersion}, and a service may be at most ${options.supportedSpan} ` +
        `version(s) behind it. Upgrade this service before starting it.`,
    };
  }
  if (behind > 0) {
    return {
      ok: true,
      oldestPeerVersion,
      warn:
        `${binary} service version ${version} is older than every live peer (oldest: version ` +
        `${oldestPeerVersion}); upgrade this service to finish the rolling upgrade.`,
    };
  }
  return { ok: true, oldestPeerVersion };
}
