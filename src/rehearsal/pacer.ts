/**
 * The load's pace: one request at a time per slot, the slots of all workers together 1/rate
 * apart, so the whole load keeps to its target rate however many workers share it.
 */
export class Pacer {
  /** `rate`: requests per second, all callers together (`LoadSettings.rate`). */
  #next = 0;
  readonly #interval: number;
  constructor(rate: number) {
    this.#interval = 1000 / rate;
  }
  /** Resolves when this caller's slot comes. */
  async slot(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.#next);
    this.#next = at + this.#interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}
