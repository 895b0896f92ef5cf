/**
 * The API's view of which conductor serves which node (Ironic's HashRingManager): the rings of
 * the live conductors, cached for `[DEFAULT] hash_ring_reset_interval` (15 s) and rebuilt at
 * once when a node finds no ring for its driver and group, so a conductor that just started
 * is seen without waiting out the interval. `reset()` forgets the rings (a conductor went
 * away under a call).
 */

import { DriverNotFoundError } from '../common/errors.ts';
import {
  ConductorRings,
  type HashRingOptions,
  type LiveConductor,
  NoConductorsError,
  NoValidHostError,
  type RingNode,
} from '../common/hash-ring.ts';

/** Ironic's `[DEFAULT] hash_ring_reset_interval`, in milliseconds. */
export const DEFAULT_RING_RESET_INTERVAL_MS = 15_000;

export interface RingCacheOptions {
  readonly resetIntervalMs?: number;
  readonly ring?: HashRingOptions;
  readonly now?: () => number;
}

export class ConductorRingCache {
  readonly #source: () => Promise<readonly LiveConductor[]>;
  readonly #resetIntervalMs: number;
  readonly #ringOptions: HashRingOptions;
  readonly #now: () => number;
  #rings: { readonly value: ConductorRings; readonly builtAt: number } | undefined;
  #loading: Promise<ConductorRings> | undefined;

  constructor(source: () => Promise<readonly LiveConductor[]>, options: RingCacheOptions = {}) {
    this.#source = source;
    this.#resetIntervalMs = options.resetIntervalMs ?? DEFAULT_RING_RESET_INTERVAL_MS;
    this.#ringOptions = options.ring ?? {};
    this.#now = options.now ?? Date.now;
  }

  /** The rings, rebuilt when older than the reset interval. */
  async rings(): Promise<ConductorRings> {
    const cached = this.#rings;
    if (cached !== undefined && this.#now() - cached.builtAt < this.#resetIntervalMs) {
      return cached.value;
    }
    return this.#rebuild();
  }

  /** The host a node maps to; a miss rebuilds the rings once before it is an error. */
  async conductorFor(node: RingNode): Promise<string> {
    const rings = await this.rings();
    try {
      return rings.conductorFor(node);
    } catch (error) {
      if (!(error instanceof NoValidHostError || error instanceof NoConductorsError)) throw error;
      if (this.#rings?.value !== rings) return (await this.rings()).conductorFor(node);
      this.reset();
      return (await this.rings()).conductorFor(node);
    }
  }

  /**
   * A live conductor chosen at random, for a call any conductor serves (Ironic's
   * get_random_topic); TemporaryFailure (503) when there is none.
   */
  async anyConductor(): Promise<string> {
    let hosts = (await this.rings()).hosts();
    if (hosts.length === 0) {
      this.reset();
      hosts = (await this.rings()).hosts();
    }
    if (hosts.length === 0) throw new NoConductorsError();
    return hosts[Math.floor(Math.random() * hosts.length)] as string;
  }

  /**
   * A live conductor running `driver`, whatever its group, chosen at random (Ironic's
   * get_topic_for_driver); DriverNotFound when none does, with the hash ring's texts: `The
   * driver 'ipmi' is unknown.`, or `No conductors registered.` when there is no conductor.
   */
  async conductorForDriver(driver: string): Promise<string> {
    let rings = await this.rings();
    let hosts = rings.hostsServing(driver);
    if (hosts.length === 0) {
      this.reset();
      rings = await this.rings();
      hosts = rings.hostsServing(driver);
    }
    if (hosts.length === 0) {
      const none = rings.hosts().length === 0;
      throw new DriverNotFoundError(
        driver,
        none ? 'No conductors registered.' : `The driver '${driver}' is unknown.`,
      );
    }
    return hosts[Math.floor(Math.random() * hosts.length)] as string;
  }

  /** Forget the rings: the next lookup reads the conductors again. */
  reset(): void {
    this.#rings = undefined;
  }

  #rebuild(): Promise<ConductorRings> {
    this.#loading ??= (async () => {
      try {
        const value = new ConductorRings(await this.#source(), this.#ringOptions);
        this.#rings = { value, builtAt: this.#now() };
        return value;
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }
}

/**
 * The live conductors from the store's `group:hardware type → hosts` map
 * (`activeHardwareTypes(timeout, { useGroups: true })`). Conductor groups hold no `:`.
 */
export function liveConductorsFrom(byGroupAndType: ReadonlyMap<string, ReadonlySet<string>>) {
  const conductors = new Map<string, { conductorGroup: string; hardwareTypes: string[] }>();
  for (const [key, hosts] of byGroupAndType) {
    const split = key.indexOf(':');
    const group = key.slice(0, split);
    const hardwareType = key.slice(split + 1);
    for (const host of hosts) {
      const entry = conductors.get(host) ?? { conductorGroup: group, hardwareTypes: [] };
      entry.hardwareTypes.push(hardwareType);
      conductors.set(host, entry);
    }
  }
  return [...conductors].map(
    ([hostname, entry]): LiveConductor => ({
      hostname,
      conductorGroup: entry.conductorGroup,
      hardwareTypes: entry.hardwareTypes,
    }),
  );
}
