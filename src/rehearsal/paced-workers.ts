/**
 * What every service's load shares: workers that each loop until stopped, one request slot at a
 * time from a shared pacer, an operation drawn by weight for each turn, and the APIs of the new
 * release (none before step 3.3) to ask directly for what only it serves.
 */
import { randomInt } from 'node:crypto';
import { Pacer } from './pacer.ts';
import type { ServiceLoad } from './rehearsed-service.ts';

/** Draws a key of `mix` by weight from a number in [0, sum of weights); `fallback` past the end. */
export function drawWeighted<Operation extends string>(
  mix: Readonly<Record<Operation, number>>,
  roll: number,
  fallback: Operation,
): Operation {
  let left = roll;
  for (const [operation, weight] of Object.entries(mix) as [Operation, number][]) {
    if (left < weight) return operation;
    left -= weight;
  }
  return fallback;
}

/** The sum of a mix's weights: the bound of the roll `drawWeighted` is given. */
export function mixTotal(mix: Readonly<Record<string, number>>): number {
  return Object.values(mix).reduce((a, b) => a + b, 0);
}

export abstract class PacedWorkers implements ServiceLoad {
  protected readonly pacer: Pacer;
  readonly #workerCount: number;
  #stopping = false;
  #workers: Promise<void>[] = [];
  #newReleaseApis: readonly string[] = [];

  constructor(settings: { readonly workers: number; readonly rate: number }) {
    this.#workerCount = settings.workers;
    this.pacer = new Pacer(settings.rate);
  }

  start(): void {
    this.#workers = Array.from({ length: this.#workerCount }, (_, i) => this.work(i));
  }

  /** The base URLs of the APIs that serve the new release unpinned (none before step 3.3). */
  setNewReleaseApis(urls: readonly string[]): void {
    this.#newReleaseApis = [...urls];
  }

  setRate(rate: number): void {
    this.pacer.setRate(rate);
  }

  /** Starts nothing new, lets every worker finish what it is doing. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.#workers);
  }

  /** One worker's loop; it ends its turns once `stopping` is true. */
  protected abstract work(worker: number): Promise<void>;

  protected get stopping(): boolean {
    return this.#stopping;
  }

  protected get newReleaseApis(): readonly string[] {
    return this.#newReleaseApis;
  }

  /** One of the new release's APIs, at random; undefined when none serves now. */
  protected readonly newReleaseApi = (): string | undefined =>
    this.#newReleaseApis.length === 0
      ? undefined
      : this.#newReleaseApis[randomInt(this.#newReleaseApis.length)];
}
