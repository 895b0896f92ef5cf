/**
 * A service process announces itself (the service-version spec): its binary, host and
 * service version, then keeps its row fresh with heartbeats. The row is keyed
 * by (binary, host), so a restarted process replaces its old row at once
 * instead of leaving an old version live until it times out; `host` must
 * therefore tell apart processes of one binary on one machine (`host:port`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../connect.ts';
import { inTransaction } from '../transaction.ts';
import { InvalidServiceIdentityError } from './errors.ts';
import { type ClaimOptions, claimIdentity, THIS_MACHINE } from './identity-claim.ts';
import { type Clock, checkServiceVersion, DEFAULT_HEARTBEAT_SECONDS } from './liveness.ts';
import {
  ensureServicesTable,
  SERVICES_TABLE,
  type ServicesTables,
  servicesKysely,
} from './services-table.ts';

/** Who a process is in the services table: its binary, its host and its service version. */
export interface ServiceIdentity {
  readonly binary: string;
  readonly host: string;
  /** The service version number of the code this process runs (a positive integer). */
  readonly version: number;
}

/** What registerService records, and how. */
export interface RegisterOptions extends ServiceIdentity {
  readonly clock?: Clock;
  /**
   * Where this process listens for RPC (`http://127.0.0.1:4711`). Left out,
   * a row keeps the address it has.
   */
  readonly rpcAddress?: string;
  /**
   * The pin and caps in force now, written with the row and every heartbeat (caps follow the
   * deployment on SIGHUP). Left out, the row's are not touched.
   */
  readonly caps?: () => ServiceCaps;
  /**
   * Claim the identity instead of taking the row over (identity-claim.ts): a live process
   * holding it refuses the registration, a stopping one is waited for. Left out, the row is
   * replaced whoever holds it (tools and tests that play processes).
   */
  readonly claim?: ClaimOptions;
  /** The process's own facts, written with the row: its pid and machine, where it serves, its config files. */
  readonly process?: ProcessFacts;
  /** What the row's `health` column says at each heartbeat: undefined when healthy. */
  readonly health?: () => Promise<string | undefined> | string | undefined;
}

/** What a row says of the process that holds it. */
export interface ProcessFacts {
  readonly pid?: number;
  readonly machine?: string;
  /** Where it serves (an API's URL). */
  readonly address?: string;
  readonly configFiles?: readonly string[];
}

/** A process's state, as the row says it: claimed and starting, serving, stopping. */
export type ProcessState = 'starting' | 'serving' | 'stopping';

/** What a process's versions are capped at, as the services table records it. */
export interface ServiceCaps {
  /** `pin_release_version`, when set. */
  readonly pin: string | undefined;
  /** The release whose versions the process writes and sends; undefined for its own. */
  readonly release: string | undefined;
}

function capsColumns(caps: (() => ServiceCaps) | undefined) {
  if (caps === undefined) return {};
  const { pin, release } = caps();
  return { pin_release: pin ?? null, caps_release: release ?? null };
}

/** How often a registered process beats. */
export interface HeartbeatLoopOptions {
  readonly intervalSeconds?: number;
  /** Called when a heartbeat fails (the loop keeps going; the next one may succeed). */
  readonly onError?: (error: unknown) => void;
}

/** A registered process: its row, its heartbeat and its clean stop. */
export interface ServiceRegistration extends ServiceIdentity {
  readonly id: string;
  /** Marks the service alive now; re-creates its row if an operator removed it. */
  heartbeat(): Promise<void>;
  /** Heartbeats every `intervalSeconds` (default 10) until the returned function is called. */
  startHeartbeats(options?: HeartbeatLoopOptions): () => void;
  /** Writes the process's state (a claimed process starts `starting`). */
  setState(state: ProcessState): Promise<void>;
  /** Writes where it serves, once it knows (an API listening on a port chosen at start). */
  setAddress(address: string): Promise<void>;
  /**
   * Removes the row (clean shutdown), so it no longer counts anywhere. It waits for a
   * heartbeat in flight, and heartbeats after it do nothing: none re-creates the row.
   */
  deregister(): Promise<void>;
}

function factsColumns(facts: ProcessFacts | undefined) {
  if (facts === undefined) return {};
  return {
    ...(facts.pid === undefined ? {} : { pid: facts.pid }),
    ...(facts.machine === undefined ? {} : { machine: facts.machine }),
    ...(facts.address === undefined ? {} : { address: facts.address }),
    ...(facts.configFiles === undefined ? {} : { config_files: facts.configFiles.join('\n') }),
  };
}

function checkIdentity(identity: ServiceIdentity): void {
  for (const field of ['binary', 'host'] as const) {
    const value = identity[field];
    if (typeof value !== 'string' || value.length === 0 || value.length > 255)
      throw new InvalidServiceIdentityError(field, String(value));
  }
  checkServiceVersion(identity.version);
}

type RowIdentity = ServiceIdentity & {
  readonly rpcAddress?: string | undefined;
  readonly caps?: (() => ServiceCaps) | undefined;
  readonly process?: ProcessFacts | undefined;
};

/** Inserts or replaces the (binary, host) row in one transaction; returns its id. */
async function writeRow(
  db: Database,
  identity: RowIdentity,
  now: number,
  preferredId: string,
): Promise<string> {
  return inTransaction(db, async (executor) => {
    const trx = executor as unknown as Kysely<ServicesTables>;
    const values = {
      version: identity.version,
      started_at: now,
      last_seen: now,
      ...(identity.rpcAddress === undefined ? {} : { rpc_address: identity.rpcAddress }),
      ...capsColumns(identity.caps),
      ...factsColumns(identity.process),
    };
    const existing = await trx
      .selectFrom(SERVICES_TABLE)
      .select('id')
      .where('binary', '=', identity.binary)
      .where('host', '=', identity.host)
      .executeTakeFirst();
    if (existing !== undefined) {
      await trx.updateTable(SERVICES_TABLE).set(values).where('id', '=', existing.id).execute();
      return existing.id;
    }
    await trx
      .insertInto(SERVICES_TABLE)
      .values({ id: preferredId, binary: identity.binary, host: identity.host, ...values })
      .execute();
    return preferredId;
  });
}

async function upsert(
  db: Database,
  identity: RowIdentity,
  now: number,
  preferredId: string,
): Promise<string> {
  try {
    return await writeRow(db, identity, now, preferredId);
  } catch (error) {
    // Another process inserted the same (binary, host) between our select and
    // insert, and the unique constraint refused ours: the row is there to update now.
    try {
      return await writeRow(db, identity, now, preferredId);
    } catch {
      throw error;
    }
  }
}

/** Records this process in the services table with its service version and starts its heartbeat. */
export async function registerService(
  db: Database,
  options: RegisterOptions,
): Promise<ServiceRegistration> {
  const identity = { binary: options.binary, host: options.host, version: options.version };
  checkIdentity(identity);
  if (
    options.rpcAddress !== undefined &&
    (options.rpcAddress === '' || options.rpcAddress.length > 255)
  )
    throw new InvalidServiceIdentityError('rpcAddress', options.rpcAddress);
  const row = {
    ...identity,
    rpcAddress: options.rpcAddress,
    caps: options.caps,
    process: options.process,
  };
  const clock = options.clock ?? Date.now;
  await ensureServicesTable(db);
  const claim = options.claim;
  const pid = options.process?.pid ?? process.pid;
  let id =
    claim === undefined
      ? await upsert(db, row, clock(), randomUUID())
      : await claimIdentity(
          db,
          { ...identity, pid, machine: options.process?.machine ?? THIS_MACHINE },
          {
            ...(options.rpcAddress === undefined ? {} : { rpc_address: options.rpcAddress }),
            ...capsColumns(options.caps),
            ...factsColumns(options.process),
            state: 'starting',
          },
          randomUUID(),
          { clock, ...claim },
        );
  const kysely = servicesKysely(db);
  let deregistered = false;
  // A claimed identity another process took over is not ours to refresh any more.
  let lost = false;
  const inFlight = new Set<Promise<void>>();

  const beat = async (): Promise<void> => {
    if (deregistered || lost) return;
    const now = clock();
    const health =
      options.health === undefined ? undefined : { health: (await options.health()) ?? null };
    let update = kysely
      .updateTable(SERVICES_TABLE)
      .set({ last_seen: now, ...capsColumns(options.caps), ...health })
      .where('id', '=', id);
    if (claim !== undefined) update = update.where('pid', '=', pid);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0 || deregistered) return;
    if (claim === undefined) {
      id = await upsert(db, row, now, id);
      return;
    }
    const current = await kysely
      .selectFrom(SERVICES_TABLE)
      .select('pid')
      .where('id', '=', id)
      .executeTakeFirst();
    // Removed by an operator: written again as ours. Taken over: ours no more.
    if (current === undefined) id = await upsert(db, row, now, id);
    else lost = true;
  };
  const heartbeat = (): Promise<void> => {
    const beating = beat();
    inFlight.add(beating);
    const done = () => inFlight.delete(beating);
    beating.then(done, done);
    return beating;
  };

  return {
    ...identity,
    get id() {
      return id;
    },
    heartbeat,
    startHeartbeats(loop: HeartbeatLoopOptions = {}) {
      const seconds = loop.intervalSeconds ?? DEFAULT_HEARTBEAT_SECONDS;
      const timer = setInterval(() => {
        heartbeat().catch((error: unknown) => loop.onError?.(error));
      }, seconds * 1000);
      // A heartbeat loop alone must not keep the process running.
      timer.unref();
      return () => clearInterval(timer);
    },
    async setState(state) {
      let update = kysely.updateTable(SERVICES_TABLE).set({ state }).where('id', '=', id);
      if (claim !== undefined) update = update.where('pid', '=', pid);
      await update.execute();
    },
    async setAddress(address) {
      let update = kysely.updateTable(SERVICES_TABLE).set({ address }).where('id', '=', id);
      if (claim !== undefined) update = update.where('pid', '=', pid);
      await update.execute();
    },
    async deregister() {
      deregistered = true;
      await Promise.allSettled(inFlight);
      // A claimed row another process took over is its row now: left alone.
      let remove = kysely.deleteFrom(SERVICES_TABLE).where('id', '=', id);
      if (claim !== undefined) remove = remove.where('pid', '=', pid);
      await remove.execute();
    },
  };
}
