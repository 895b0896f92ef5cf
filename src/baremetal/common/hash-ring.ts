/**
 * The consistent hash ring that maps a node to the conductor serving it, as Ironic 21.4.4
 * builds it (ironic/common/hash_ring.py over tooz's HashRing), so that Baton and the real
 * service put the same node on the same host given the same conductors.
 *
 * Each host owns `2^hash_partition_exponent` points on a ring of 128-bit md5 values: point r
 * of host h is md5(h repeated r + 2 times). A node's key (its UUID) hashes to a position and
 * belongs to the host owning the next point clockwise. Adding or removing a host moves only
 * the keys between its points and their predecessors, about 1/n of them.
 *
 * There is one ring per `conductor_group:hardware_type`, made of the live conductors (online,
 * heartbeat within `[conductor] heartbeat_timeout`) of that group that have that hardware type
 * enabled. Ironic 21.x has no `hash_distribution_replicas` option any more: a node maps to
 * exactly one host; `replicas` is kept on the ring for tooz parity only.
 */
import { createHash, type Hash } from 'node:crypto';
import { IronicError } from './ironic-error.ts';

/** Ironic's `[DEFAULT] hash_partition_exponent` default: 32 points per host. */
export const DEFAULT_PARTITION_EXPONENT = 5;
/** Ironic's `[DEFAULT] hash_ring_algorithm` default. */
export const DEFAULT_HASH_ALGORITHM = 'md5';

export interface HashRingOptions {
  readonly partitionExponent?: number;
  readonly algorithm?: string;
}

/** One consistent hash ring over a set of hosts (tooz's HashRing, equal weights). */
export class HashRing {
  readonly hosts: ReadonlySet<string>;
  readonly #algorithm: string;
  // Points as fixed-width lowercase hex: for equal lengths, string order is numeric order.
  readonly #points: string[];
  readonly #owners: string[];
  /**
   * Each key's first host, once looked up: a ring never changes (it is rebuilt instead), and a
   * page of 100 nodes would otherwise hash 100 UUIDs on every list.
   */
  readonly #primary = new Map<string, string>();

  constructor(hosts: Iterable<string>, options: HashRingOptions = {}) {
    const exponent = options.partitionExponent ?? DEFAULT_PARTITION_EXPONENT;
    if (!Number.isInteger(exponent) || exponent < 0 || exponent > 20) {
      throw new RangeError(`hash_partition_exponent must be an integer in 0..20, not ${exponent}`);
    }
    this.#algorithm = options.algorithm ?? DEFAULT_HASH_ALGORITHM;
    this.hosts = new Set(hosts);
    const owner = new Map<string, string>();
    // Sorted, so that two hosts landing on one point (never seen with md5) resolve the same
    // way whatever order the hosts were given in.
    for (const host of [...this.hosts].sort()) {
      const key = Buffer.from(host, 'utf8');
      const running: Hash = createHash(this.#algorithm).update(key);
      for (let r = 0; r < 2 ** exponent; r++) {
        running.update(key);
        owner.set(running.copy().digest('hex'), host);
      }
    }
    this.#points = [...owner.keys()].sort();
    this.#owners = this.#points.map((point) => owner.get(point) as string);
  }

  /**
   * The hosts `key` maps to: the owner of the first point after its hash, then (for more
   * replicas) the next distinct owners clockwise, skipping `ignore`.
   */
  hostsFor(key: string, options: { replicas?: number; ignore?: Iterable<string> } = {}): string[] {
    if (options.replicas === undefined && options.ignore === undefined) {
      const known = this.#primary.get(key);
      if (known !== undefined) return [known];
    }
    const ignore = new Set(options.ignore ?? []);
    let candidates = 0;
    for (const host of this.hosts) if (!ignore.has(host)) candidates++;
    const wanted = Math.min(options.replicas ?? 1, candidates);
    const found: string[] = [];
    if (wanted <= 0) return found;
    let index = this.#positionOf(key);
    while (found.length < wanted) {
      const host = this.#owners[index] as string;
      if (!ignore.has(host) && !found.includes(host)) found.push(host);
      index = index + 1 < this.#points.length ? index + 1 : 0;
    }
    if (options.replicas === undefined && options.ignore === undefined && found[0] !== undefined) {
      this.#primary.set(key, found[0]);
    }
    return found;
  }

  // bisect_right over the points; past the last point wraps to the first.
  #positionOf(key: string): number {
    const hash = createHash(this.#algorithm).update(key, 'utf8').digest('hex');
    let low = 0;
    let high = this.#points.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (hash < (this.#points[middle] as string)) high = middle;
      else low = middle + 1;
    }
    return low < this.#points.length ? low : 0;
  }
}

/** A conductor as the rings see it: alive, with its group and enabled hardware types. */
export interface LiveConductor {
  readonly hostname: string;
  readonly conductorGroup: string;
  readonly hardwareTypes: readonly string[];
}

/** What the rings need of a node. */
export interface RingNode {
  readonly uuid: string;
  readonly driver: string;
  readonly conductorGroup: string | null;
}

/** No live conductor has the node's driver in the node's group (the real NoValidHost). */
export class NoValidHostError extends IronicError {
  override name = 'NoValidHostError';
  /** Ironic's NotFound; the API answers 400 where the real one converts it (create, PATCH). */
  override get code() {
    return 404;
  }
  readonly reason: string;

  constructor(driver: string, conductorGroup: string) {
    const reason = `No conductor service registered which supports driver ${driver} for conductor group "${conductorGroup}".`;
    super(`No valid host was found. Reason: ${reason}`);
    this.reason = reason;
  }
}

/** No live conductor at all (the real TemporaryFailure, 503). */
export class NoConductorsError extends IronicError {
  override name = 'NoConductorsError';
  override get code() {
    return 503;
  }
  constructor() {
    super('Resource temporarily unavailable, please retry.');
  }
}

/** The rings of a cluster at one moment: one per conductor group and hardware type. */
export class ConductorRings {
  readonly #rings = new Map<string, HashRing>();

  constructor(conductors: Iterable<LiveConductor>, options: HashRingOptions = {}) {
    const hostsByRing = new Map<string, Set<string>>();
    for (const conductor of conductors) {
      for (const hardwareType of conductor.hardwareTypes) {
        const name = ringName(conductor.conductorGroup, hardwareType);
        const hosts = hostsByRing.get(name) ?? new Set<string>();
        hosts.add(conductor.hostname);
        hostsByRing.set(name, hosts);
      }
    }
    for (const [name, hosts] of hostsByRing) this.#rings.set(name, new HashRing(hosts, options));
  }

  /** The hosts serving `hardwareType` in `conductorGroup` (the drivers list's `hosts`). */
  hostsWith(hardwareType: string, conductorGroup = ''): ReadonlySet<string> {
    return this.#rings.get(ringName(conductorGroup, hardwareType))?.hosts ?? new Set();
  }

  /** The hosts serving `hardwareType` in any group, sorted (get_topic_for_driver's ring). */
  hostsServing(hardwareType: string): string[] {
    const all = new Set<string>();
    for (const [name, ring] of this.#rings) {
      if (name.slice(name.indexOf(':') + 1) !== hardwareType) continue;
      for (const host of ring.hosts) all.add(host);
    }
    return [...all].sort();
  }

  /** The conductor a node maps to; throws NoConductorsError or NoValidHostError. */
  conductorFor(node: RingNode): string {
    if (this.#rings.size === 0) throw new NoConductorsError();
    const group = node.conductorGroup ?? '';
    const ring = this.#rings.get(ringName(group, node.driver));
    if (!ring) throw new NoValidHostError(node.driver, group);
    return ring.hostsFor(node.uuid)[0] as string;
  }

  /** Every host on some ring, sorted: the live conductors. */
  hosts(): string[] {
    const all = new Set<string>();
    for (const ring of this.#rings.values()) for (const host of ring.hosts) all.add(host);
    return [...all].sort();
  }

  /** Whether `host` serves `node` now (a conductor's check before taking a node over). */
  isMappedTo(node: RingNode, host: string): boolean {
    const ring = this.#rings.get(ringName(node.conductorGroup ?? '', node.driver));
    return ring !== undefined && ring.hostsFor(node.uuid)[0] === host;
  }
}

function ringName(conductorGroup: string, hardwareType: string): string {
  return `${conductorGroup}:${hardwareType}`;
}
