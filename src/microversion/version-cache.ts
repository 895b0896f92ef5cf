import type { Version } from './version.ts';

/** What a client learned about one endpoint: its supported range, or that it has no versions. */
export type KnownServerVersions =
  | { readonly microversions: true; readonly min: Version; readonly max: Version }
  | { readonly microversions: false };

/**
 * Negotiation results per endpoint, so later requests (from any client sharing the cache) do not
 * renegotiate (use case 7A). It stores the server's range rather than the agreed version: two
 * clients with different ranges then each pick their own best version from the same knowledge.
 * The client writes only what a success showed or a range the server stated, never what an
 * error answer seemed to say. A stale entry heals itself: a 406 at the cached version
 * renegotiates and overwrites it, and a versioned success replaces "no microversions".
 */
export class VersionCache {
  readonly #entries = new Map<string, KnownServerVersions>();

  /** Endpoints differing only by trailing slashes are the same endpoint. */
  static key(endpoint: string): string {
    let end = endpoint.length;
    while (end > 0 && endpoint.charCodeAt(end - 1) === 47) end--;
    return endpoint.slice(0, end);
  }

  /** What is known of an endpoint's versions. */
  get(endpoint: string): KnownServerVersions | undefined {
    return this.#entries.get(VersionCache.key(endpoint));
  }

  /** Records what an endpoint serves. */
  set(endpoint: string, known: KnownServerVersions): void {
    this.#entries.set(VersionCache.key(endpoint), known);
  }

  /** Forgets an endpoint; true when it was known. */
  delete(endpoint: string): boolean {
    return this.#entries.delete(VersionCache.key(endpoint));
  }

  /** Forgets every endpoint. */
  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Shared by every client that is not given a cache of its own. */
export const defaultVersionCache = new VersionCache();
