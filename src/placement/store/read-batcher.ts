/**
 * Coalesces the reads that arrive in the same turn of the event loop into one query.
 *
 * Under load, several requests for the same kind of read (a provider's inventories, its
 * usages) are parsed in one poll phase; each asks for its key, and one query fetches them
 * all when the turn ends. Every caller still sees a state the database committed (the one the
 * shared query read), exactly as if its own query had run at that moment. On this project's
 * machines a database round trip costs far more than the query, so this is the cheapest way
 * to serve many concurrent reads.
 */
export type BatchLoader<K, V> = (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>;

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export class ReadBatcher<K, V> {
  readonly #load: BatchLoader<K, V>;
  readonly #maxBatch: number;
  #pending = new Map<K, Waiter<V>[]>();
  #scheduled = false;

  constructor(load: BatchLoader<K, V>, maxBatch = 64) {
    this.#load = load;
    this.#maxBatch = maxBatch;
  }

  /** The value for `key`, or undefined when the loader found none. */
  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.#pending.get(key);
      if (waiters !== undefined) waiters.push({ resolve, reject });
      else this.#pending.set(key, [{ resolve, reject }]);
      if (this.#pending.size >= this.#maxBatch) this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#load([...batch.keys()]).then(
      (found) => {
        for (const [key, waiters] of batch) {
          const value = found.get(key);
          for (const waiter of waiters) waiter.resolve(value);
        }
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}

/** One batcher per (database, kind of read), made on first use. */
export function batcherFor<D extends object, K, V>(
  cache: WeakMap<D, ReadBatcher<K, V>>,
  db: D,
  load: (db: D, keys: readonly K[]) => Promise<ReadonlyMap<K, V>>,
): ReadBatcher<K, V> {
  let batcher = cache.get(db);
  if (batcher === undefined) {
    batcher = new ReadBatcher((keys) => load(db, keys));
    cache.set(db, batcher);
  }
  return batcher;
}
