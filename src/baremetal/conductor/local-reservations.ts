/**
 * What a conductor knows of its own node reservations that the database cannot tell it: which
 * nodes its tasks hold, and which may carry its name with no task behind them.
 *
 * The second kind comes from a database connection cut at the wrong moment: a reserve whose
 * UPDATE committed but whose reply was lost (the task never started, so nothing will release
 * it), or a release that may not have committed. Such a reservation names a live conductor,
 * so no other conductor clears it, and the node would stay locked until this one restarts.
 * These nodes are kept as "unsettled" and settled in the background once the database
 * answers: with no task of ours holding the node and no reserve of ours in flight, a
 * reservation in our name belongs to nobody and is released.
 *
 * Settling excludes reserving (reserves wait while a node is being settled; a settle waits
 * for the reserves in flight), so it can never release a reservation a task has just taken.
 */
import { isDatabaseUnavailable } from '../../db/index.ts';
import { NodeLockedError, NodeNotLockedError, NotFoundError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';

/** The database side of settling, given by the conductor (its store and host). */
export interface ReservationStore {
  /** Reads the node's uuid (NotFoundError when it is gone). */
  uuidOf(ident: string | number): Promise<string>;
  /** Releases the node if this conductor's host holds it; NodeNotLocked/NodeLocked otherwise. */
  release(ident: string | number): Promise<void>;
}

export interface SettleLog {
  info(message: string): void;
  warn(message: string): void;
}

/** How long between two attempts to settle while the database is away. */
export const SETTLE_INTERVAL_MS = 1_000;

export class LocalReservations {
  readonly #store: ReservationStore;
  readonly #log: SettleLog;
  readonly #intervalMs: number;
  /** Node uuid → how many of our tasks hold it (one, unless a task re-takes it). */
  readonly #held = new Map<string, number>();
  /** Idents (uuid or id, as the caller named the node) that may be reserved in our name. */
  readonly #unsettled = new Set<string | number>();
  #reservesInFlight = 0;
  #reservesDone: (() => void) | undefined;
  #settling: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(store: ReservationStore, log: SettleLog, intervalMs = SETTLE_INTERVAL_MS) {
    this.#store = store;
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  /** The nodes that may still carry our name with no task behind them. */
  get unsettled(): ReadonlySet<string | number> {
    return this.#unsettled;
  }

  /**
   * Takes the node through `reserve` (the database's conditional UPDATE). A failure that
   * leaves the outcome unknown (the database went away) marks the node unsettled.
   */
  async reserve(ident: string | number, reserve: () => Promise<NodeObject>): Promise<NodeObject> {
    while (this.#settling !== undefined) await this.#settling;
    this.#reservesInFlight += 1;
    try {
      const node = await reserve();
      const uuid = String(node.get('uuid'));
      this.#held.set(uuid, (this.#held.get(uuid) ?? 0) + 1);
      return node;
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.#markUnsettled(ident);
      throw error;
    } finally {
      this.#reservesInFlight -= 1;
      if (this.#reservesInFlight === 0) this.#reservesDone?.();
    }
  }

  /**
   * A task is done with the node. `certain` is false when its release met the database
   * away: the reservation may still be there, so the node is settled later.
   */
  released(uuid: string, certain: boolean): void {
    const count = (this.#held.get(uuid) ?? 0) - 1;
    if (count > 0) this.#held.set(uuid, count);
    else this.#held.delete(uuid);
    if (!certain) this.#markUnsettled(uuid);
  }

  /** Stops settling (the conductor stops; its next start clears its reservations anyway). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #markUnsettled(ident: string | number): void {
    this.#unsettled.add(ident);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.settleNow().finally(() => {
        if (this.#unsettled.size > 0) this.#schedule();
      });
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** One pass over the unsettled nodes; those the database could not answer for stay. */
  async settleNow(): Promise<void> {
    for (const ident of [...this.#unsettled]) {
      if (this.#stopped) return;
      try {
        await this.#settle(ident);
        this.#unsettled.delete(ident);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          this.#unsettled.delete(ident);
          this.#log.warn(`could not settle the reservation of node ${ident}: ${String(error)}`);
        }
      }
    }
  }

  async #settle(ident: string | number): Promise<void> {
    let uuid: string;
    try {
      uuid = await this.#store.uuidOf(ident);
    } catch (error) {
      if (error instanceof NotFoundError) return;
      throw error;
    }
    await this.#exclusive(async () => {
      // A task of ours holds it: its reserve found the node free, so nothing was left behind.
      if (this.#held.has(uuid)) return;
      try {
        await this.#store.release(uuid);
        this.#log.info(
          `node ${uuid} released: a database connection cut mid-request left it reserved in this conductor's name`,
        );
      } catch (error) {
        const settled =
          error instanceof NodeNotLockedError ||
          error instanceof NodeLockedError ||
          error instanceof NotFoundError;
        if (!settled) throw error;
      }
    });
  }

  /** Runs `body` with no reserve in flight and none starting. */
  async #exclusive(body: () => Promise<void>): Promise<void> {
    while (this.#settling !== undefined) await this.#settling;
    let finished = () => {};
    this.#settling = new Promise<void>((resolve) => {
      finished = resolve;
    });
    try {
      while (this.#reservesInFlight > 0) {
        await new Promise<void>((resolve) => {
          this.#reservesDone = resolve;
        });
      }
      await body();
    } finally {
      this.#reservesDone = undefined;
      this.#settling = undefined;
      finished();
    }
  }
}
