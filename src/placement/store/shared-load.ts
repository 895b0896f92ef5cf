/**
 * Identical reads share one query, never a stale one: a caller joins the batch of its key
 * that has not been sent yet, or starts one. A batch is sent at the end of the current turn
 * of the event loop and, when a query of the same key is already running, only once that one
 * is done — so under load every caller arriving meanwhile shares the next query instead of
 * adding its own. Each caller's query is sent after the caller asked, so it sees a state
 * committed after that moment, exactly as if it had run its own.
 *
 * (read-batcher.ts does the same per turn for reads keyed by provider; this one holds a batch
 * back while its key's query runs, which suits a heavy read asked identically by many.)
 */
export class SharedLoads<V> {
  /** Key → the batch not sent yet. */
  readonly #waiting = new Map<string, Promise<V>>();
  /** Key → the query running (at most one per key). */
  readonly #running = new Map<string, Promise<V>>();

  load(key: string, query: () => Promise<V>): Promise<V> {
    const waiting = this.#waiting.get(key);
    if (waiting !== undefined) return waiting;
    const running = this.#running.get(key);
    const ready = running === undefined ? Promise.resolve() : running.then(noop, noop);
    const batch = ready.then(nextTurn).then(() => {
      this.#waiting.delete(key);
      const sent = query();
      this.#running.set(key, sent);
      const done = () => {
        if (this.#running.get(key) === sent) this.#running.delete(key);
      };
      sent.then(done, done);
      return sent;
    });
    this.#waiting.set(key, batch);
    return batch;
  }
}

function noop(): void {}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
