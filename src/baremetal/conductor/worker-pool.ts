/**
 * The conductor's bounded pool of background work (Ironic's futurist executor of
 * `[conductor] workers_pool_size` green threads): an RPC method validates, moves the node to
 * its transient state and hands the rest of the operation here, and the API has its 202.
 * When every worker is busy, new work is refused at once with NoFreeConductorWorker (503),
 * never queued behind the others. `drain` waits for the work in flight, for a clean stop.
 */
import { NoFreeConductorWorkerError } from '../common/errors.ts';

export class WorkerPool {
  readonly size: number;
  readonly #running = new Set<Promise<void>>();
  #closed = false;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('a worker pool needs a size');
    this.size = size;
  }

  get busy(): number {
    return this.#running.size;
  }

  /**
   * Starts `work` in the background; throws NoFreeConductorWorkerError when the pool is full
   * (or closed). `work` never rejects into the void: its failure goes to `onError`.
   */
  spawn(work: () => Promise<void>, onError: (error: unknown) => void): Promise<void> {
    if (this.#closed || this.#running.size >= this.size) throw new NoFreeConductorWorkerError();
    const running = (async () => {
      try {
        await work();
      } catch (error) {
        onError(error);
      }
    })();
    this.#running.add(running);
    void running.finally(() => this.#running.delete(running));
    return running;
  }

  /** No new work from now on (NoFreeConductorWorker). */
  close(): void {
    this.#closed = true;
  }

  /** Waits for the work in flight, at most `timeoutMs`; true when none is left. */
  async drain(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.#running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
      });
      await Promise.race([Promise.allSettled([...this.#running]), timeout]);
      clearTimeout(timer);
    }
    return true;
  }
}
