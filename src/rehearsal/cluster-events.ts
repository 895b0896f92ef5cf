/**
 * What the rehearsal did to the cluster and when: each process starting (until it says it
 * serves), stopping (from SIGTERM to its exit: for an API its drain, for a conductor the hash
 * ring's grace and its work finishing), HAProxy taking a server in, each database command.
 * A slow request is explained by the events it overlapped (slow-requests.ts).
 */

/** One thing the rehearsal did, from `from` to `to` (ms since the epoch). */
export interface ClusterEvent {
  readonly what: string;
  readonly from: number;
  readonly to: number;
}

export class ClusterEvents {
  readonly events: ClusterEvent[] = [];

  /** Runs `work`, recorded as `what` from its start to its end (failed or not). */
  async during<T>(what: string, work: () => Promise<T>): Promise<T> {
    const from = Date.now();
    try {
      return await work();
    } finally {
      this.events.push({ what, from, to: Date.now() });
    }
  }
}
