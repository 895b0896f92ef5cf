/**
 * Validated tokens kept for a bounded time, as keystonemiddleware's token cache keeps them
 * (`token_cache_time`, 300 s by default): a token revoked in Keystone is refused again once
 * its entry has expired. Keys are SHA-256 digests of the tokens, so the cache holds no token.
 * The number of entries is bounded too (least recently used dropped first), so a flood of
 * distinct valid tokens cannot grow the process without limit. Lookups of one token that
 * arrive while it is being validated wait for that validation instead of repeating it.
 */
import { createHash } from 'node:crypto';

export interface TokenCacheOptions {
  /** Seconds an entry stays; 0 or less: nothing is kept. */
  readonly ttlSeconds: number;
  /** Entries kept at most. */
  readonly maxEntries: number;
  /** Milliseconds since the epoch; injectable so tests move time instead of waiting. */
  readonly now?: () => number;
}

interface Entry<T> {
  readonly value: T;
  readonly storedAt: number;
}

export const DEFAULT_MAX_CACHED_TOKENS = 10_000;

export class TokenCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #pending = new Map<string, Promise<T>>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: TokenCacheOptions) {
    this.#ttlMs = options.ttlSeconds * 1000;
    this.#maxEntries = Math.max(1, options.maxEntries);
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The cached value, or undefined when absent or older than the cache time. */
  get(token: string): T | undefined {
    return this.#lookup(keyOf(token));
  }

  /**
   * The cached value, else `validate(token)`'s, stored when it resolves. A rejection is not
   * stored (keystonemiddleware caches only valid tokens) and reaches every waiting caller.
   * Only validations of the same `variant` (a way of asking) are shared.
   */
  async getOrValidate(
    token: string,
    validate: (token: string) => Promise<T>,
    variant = '',
  ): Promise<T> {
    const key = keyOf(token);
    const cached = this.#lookup(key);
    if (cached !== undefined) return cached;
    const pendingKey = `${variant}:${key}`;
    const running = this.#pending.get(pendingKey);
    if (running !== undefined) return running;
    const validation = (async () => {
      try {
        const value = await validate(token);
        this.#store(key, value);
        return value;
      } finally {
        this.#pending.delete(pendingKey);
      }
    })();
    this.#pending.set(pendingKey, validation);
    return validation;
  }

  #lookup(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.storedAt >= this.#ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    // Most recently used last, so the oldest use is dropped first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  #store(key: string, value: T): void {
    if (this.#ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, storedAt: this.#now() });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}

function keyOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
