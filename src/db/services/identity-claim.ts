/**
 * A process's identity (binary and host) is its own before it writes anything: claiming it
 * finds the row of that identity, and a live process holding it refuses the claim, naming it
 * (host, pid, machine, where it serves, since when). A holder that is stopping is waited for,
 * a bounded time, since a restart on the same host is the rolling upgrade's own step; a holder
 * that is gone (its pid dead on this machine, or its heartbeat older than the liveness window)
 * is taken over. The claim itself is a write that only one claimant can win: an insert the
 * unique (binary, host) key refuses to the second, or an update conditioned on the row as
 * read, so two processes starting at once cannot both believe they hold the identity.
 */
import { hostname } from 'node:os';
import type { Database } from '../connect.ts';
import { isDuplicateKeyError } from '../duplicate-key.ts';
import { type Clock, type LivenessOptions, liveSince } from './liveness.ts';
import { millis, SERVICES_TABLE, type ServiceRow, servicesKysely } from './services-table.ts';

/** Who claims: this process on this machine, and what it wants the row to say. */
export interface Claimant {
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  readonly pid: number;
  readonly machine: string;
}

/** How a process claims its identity in the services table. */
export interface ClaimOptions extends LivenessOptions {
  /** How long a stopping holder is waited for (default 0: refuse at once). */
  readonly waitForStoppingMs?: number;
  /** Told what the claim waits for, once, when it starts waiting. */
  readonly onWait?: (holder: HolderView) => void;
  /** Whether a pid runs on this machine (tests decide; default: signal 0). */
  readonly pidAlive?: (pid: number) => boolean;
  /** How the claim waits (tests may shorten it). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly clock?: Clock;
}

/** The process that holds an identity, as its row says. */
export interface HolderView {
  readonly binary: string;
  readonly host: string;
  readonly pid: number | undefined;
  readonly machine: string | undefined;
  readonly state: string | undefined;
  readonly address: string | undefined;
  readonly since: Date;
  readonly lastSeen: Date;
}

/** Another live process holds the identity: nothing was written. */
export class IdentityInUseError extends Error {
  override name = 'IdentityInUseError';
  readonly holder: HolderView;
  /** `waitedMs`: how long it was waited for, when it was stopping. */
  constructor(holder: HolderView, waitedMs?: number) {
    const who = [
      holder.pid === undefined ? undefined : `pid ${holder.pid}`,
      holder.machine === undefined ? undefined : `on ${holder.machine}`,
      holder.address === undefined ? undefined : `serving ${holder.address}`,
      `since ${holder.since.toISOString()}`,
      `last seen ${holder.lastSeen.toISOString()}`,
    ].filter((part) => part !== undefined);
    const waited =
      waitedMs === undefined
        ? ''
        : ` (waited ${Math.round(waitedMs / 1000)} s for it to finish stopping)`;
    super(
      `${holder.binary} ${holder.host} is already running: ${who.join(', ')}${waited}. Stop it first, or give this process another [DEFAULT] host.`,
    );
    this.holder = holder;
  }
}

/** This machine's host name, as the services table records it. */
export const THIS_MACHINE = hostname();

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function holderView(row: ServiceRow): HolderView {
  return {
    binary: row.binary,
    host: row.host,
    pid: row.pid ?? undefined,
    machine: row.machine ?? undefined,
    state: row.state ?? undefined,
    address: row.address ?? row.rpc_address ?? undefined,
    since: new Date(millis(row.started_at)),
    lastSeen: new Date(millis(row.last_seen)),
  };
}

/** Whether the row's process still holds the identity. */
function holds(row: ServiceRow, claimant: Claimant, options: ClaimOptions): boolean {
  if (millis(row.last_seen) < liveSince(options)) return false;
  // On this machine, a dead pid is a crash whose row no heartbeat will ever refresh.
  if (row.machine === claimant.machine && row.pid !== null) {
    if (row.pid === claimant.pid) return false;
    return (options.pidAlive ?? pidRuns)(row.pid);
  }
  return true;
}

async function rowOf(db: Database, claimant: Claimant): Promise<ServiceRow | undefined> {
  return (await servicesKysely(db)
    .selectFrom(SERVICES_TABLE)
    .selectAll()
    .where('binary', '=', claimant.binary)
    .where('host', '=', claimant.host)
    .executeTakeFirst()) as ServiceRow | undefined;
}

/**
 * Claims the identity, writing `values` with it (state, caps, version…); returns the row's id.
 * Throws IdentityInUseError when a live process holds it.
 */
export async function claimIdentity(
  db: Database,
  claimant: Claimant,
  values: Partial<ServiceRow>,
  newId: string,
  options: ClaimOptions = {},
): Promise<string> {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const started = clock();
  let told = false;
  for (let attempt = 0; ; attempt++) {
    const row = await rowOf(db, claimant);
    if (row !== undefined && holds(row, claimant, options)) {
      const waited = clock() - started;
      if (row.state === 'stopping' && waited < (options.waitForStoppingMs ?? 0)) {
        if (!told) options.onWait?.(holderView(row));
        told = true;
        await sleep(250);
        continue;
      }
      throw new IdentityInUseError(holderView(row), told ? waited : undefined);
    }
    const now = clock();
    const own = {
      ...values,
      version: claimant.version,
      pid: claimant.pid,
      machine: claimant.machine,
      started_at: now,
      last_seen: now,
    };
    const kysely = servicesKysely(db);
    if (row === undefined) {
      try {
        await kysely
          .insertInto(SERVICES_TABLE)
          .values({ id: newId, binary: claimant.binary, host: claimant.host, ...own } as never)
          .execute();
        return newId;
      } catch (error) {
        // Another claimant inserted it first: look again (it is live, so refused).
        if (!isDuplicateKeyError(error) || attempt > 3) throw error;
        continue;
      }
    }
    // Taken over only if nobody wrote it since we read it.
    const result = await kysely
      .updateTable(SERVICES_TABLE)
      .set(own as never)
      .where('id', '=', row.id)
      .where('last_seen', '=', row.last_seen as never)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return row.id;
    if (attempt > 3) throw new IdentityInUseError(holderView(row));
  }
}
