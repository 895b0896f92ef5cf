/**
 * Turns on a node among the requests of one process, first come first served: a request that
 * wants a node another request of this process is working on waits for it to be let go.
 *
 * - In a conductor, tasks wait for their turn before they reserve the node, instead of trying
 *   the database's reservation every `node_locked_retry_interval` as Ironic does: forty updates
 *   of one node arriving together then take the node one after the other, each as soon as the
 *   previous one is done, where polling let many of them run out of attempts (NodeLocked, 409)
 *   while the node was free most of the time. A waiter gives up (NodeLocked) when the node has
 *   stayed with the same task for as long as the polling would have waited, so a request
 *   meeting a long deploy gets NodeLocked in the same time, while one behind a line of short
 *   updates waits as long as the line moves. The database's reservation is still what excludes
 *   other conductors: a turn only orders this conductor's own tasks.
 * - In an API process, PATCHes of one node are read, applied and sent one after the other, so
 *   that they do not refuse each other at the conductor's optimistic check (NodeChanged) and
 *   go round again.
 */

interface Waiter {
  readonly wake: () => void;
  /** Starts the wait's clock again (the node changed hands: the line moves). */
  readonly restart: () => void;
}

export class Turns {
  /** Node → the requests waiting for it, in arrival order; present while one holds the node. */
  readonly #queues = new Map<string, Waiter[]>();

  /** Nodes held by a request of this process (for tests). */
  get busyNodes(): number {
    return this.#queues.size;
  }

  /**
   * Waits for the node's turn: a function to call when done with the node (which hands it to
   * the next in line), or undefined if the node stayed with the same holder for `patienceMs`
   * (each hand-over starts the clock again, so a line of short requests is waited out and a
   * long one is not). Without `patienceMs`, waits as long as it takes.
   */
  async take(node: string, patienceMs?: number): Promise<(() => void) | undefined> {
    const queue = this.#queues.get(node);
    if (queue === undefined) {
      this.#queues.set(node, []);
      return this.#leave(node);
    }
    let timer: NodeJS.Timeout | undefined;
    const came = await new Promise<boolean>((resolve) => {
      const giveUp = () => {
        queue.splice(queue.indexOf(waiter), 1);
        resolve(false);
      };
      const waiter: Waiter = {
        wake: () => {
          clearTimeout(timer);
          resolve(true);
        },
        restart: () => {
          clearTimeout(timer);
          if (patienceMs !== undefined) timer = setTimeout(giveUp, patienceMs);
        },
      };
      queue.push(waiter);
      waiter.restart();
    });
    return came ? this.#leave(node) : undefined;
  }

  /** The function that ends a turn, once: the next waiter gets the node, or nobody holds it. */
  #leave(node: string): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const queue = this.#queues.get(node);
      const next = queue?.shift();
      if (next === undefined) {
        this.#queues.delete(node);
        return;
      }
      next.wake();
      for (const waiter of queue ?? []) waiter.restart();
    };
  }
}
