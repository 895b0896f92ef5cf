/**
 * The caps in force of a running process, which a refresh (SIGHUP) may change: a CapsInForce
 * whose fields read the current value, so the consumers built once at start (the stores'
 * object targets, the RPC serializer, an RPC client given `() => caps.rpcCap`) follow it.
 * The API's maximum microversion is read once by the negotiator and does not follow.
 */
import type { VersionTargets } from '../objects/targets.ts';
import type { CapsInForce, CapsSource } from './caps-in-force.ts';

export class LiveCaps implements CapsInForce {
  #current: CapsInForce;
  readonly #listeners: ((caps: CapsInForce) => void)[] = [];
  /** Delegates to the current caps' targets on every call. */
  readonly objectTargets: VersionTargets = {
    objectVersion: (typeName, latest) =>
      this.#current.objectTargets.objectVersion(typeName, latest),
  };

  constructor(initial: CapsInForce) {
    this.#current = initial;
  }

  get release(): string | undefined {
    return this.#current.release;
  }
  get source(): CapsSource {
    return this.#current.source;
  }
  get apiMax(): string | undefined {
    return this.#current.apiMax;
  }
  get rpcCap(): string | undefined {
    return this.#current.rpcCap;
  }

  /** The caps as they are now, as a plain frozen value. */
  current(): CapsInForce {
    return this.#current;
  }

  /** Replaces the caps; listeners (metrics, logs) are told. */
  update(caps: CapsInForce): void {
    this.#current = caps;
    for (const listener of this.#listeners) listener(caps);
  }

  /** Calls `listener` whenever the caps in force change. */
  onUpdate(listener: (caps: CapsInForce) => void): void {
    this.#listeners.push(listener);
  }
}
