/**
 * The load's pace: one request at a time per slot, the slots of all workers together 1/rate
 * apart, so the whole load keeps to its target rate however many workers share it. An
 * infinite rate lets every worker send as soon as its last answer came (the cluster's
 * capacity with that many workers: `--find-capacity`).
 */
export class Pacer {
  /** `rate`: requests per second, all callers together (`LoadSettings.rate`). */
  #next = 0;
  #interval: number;
  constructor(rate: number) {
    this.#interval = 1000 / rate;
  }
  /** From now on, slots `1/rate` apart (Infinity: no wait). */
  setRate(rate: number): void {
    this.#interval = 1000 / rate;
    this.#next = 0;
  }
  /** Resolves when this caller's slot comes. */
  async slot(): Promise<void> {
    if (this.#interval === 0) return;
    const now = Date.now();
    const at = Math.max(now, this.#next);
    this.#next = at + this.#interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }
}
