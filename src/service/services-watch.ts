/**
 * What a running process knows of its deployment from the services table, refreshed
 * periodically: for each binary, the lowest service version among the live processes and
 * how many are live (the service-version spec's question, asked again as processes come and go). The
 * metrics export it; a refresh of the caps in force can read the same snapshot.
 */
import { type Database, type LivenessOptions, listServices } from '../db/index.ts';

/** A binary's live processes and their versions. */
export interface BinaryState {
  /** The lowest service version among its live processes; undefined when none is live. */
  readonly minimumVersion: number | undefined;
  readonly liveProcesses: number;
}

/** The services table, as last read. */
export interface ServicesSnapshot {
  /** Every binary the caller watches, live or not. */
  readonly binaries: ReadonlyMap<string, BinaryState>;
  readonly readAt: Date;
}

/** What watchServices reads and how often. */
export interface ServicesWatchOptions extends LivenessOptions {
  /** The binaries to report (the service's; others in the table are ignored). */
  readonly binaries: readonly string[];
  /** Seconds between reads (default 10, the heartbeat interval). */
  readonly intervalSeconds?: number;
  /** Told when a read fails; the last snapshot stays. */
  readonly onError?: (error: unknown) => void;
}

/** A running watch of the services table. */
export interface ServicesWatch {
  /** The last snapshot read; undefined until the first read has succeeded. */
  current(): ServicesSnapshot | undefined;
  /** Reads the table now. */
  refresh(): Promise<ServicesSnapshot | undefined>;
  /** Stops reading; resolves once a read in flight has ended (the database may then close). */
  stop(): Promise<void>;
}

/** Seconds between reads of the services table. */
export const DEFAULT_SERVICES_WATCH_SECONDS = 10;

/** Reads the table once, then every `intervalSeconds` until stopped (the timer never holds the process). */
export async function watchServices(
  db: Database,
  options: ServicesWatchOptions,
): Promise<ServicesWatch> {
  let snapshot: ServicesSnapshot | undefined;
  let stopped = false;
  const read = async (): Promise<ServicesSnapshot | undefined> => {
    try {
      const rows = await listServices(db, options);
      const binaries = new Map<string, BinaryState>();
      for (const binary of options.binaries) {
        const live = rows.filter((row) => row.binary === binary && row.live);
        binaries.set(binary, {
          minimumVersion: live.length === 0 ? undefined : Math.min(...live.map((r) => r.version)),
          liveProcesses: live.length,
        });
      }
      snapshot = { binaries, readAt: new Date() };
    } catch (error) {
      if (!stopped) options.onError?.(error);
    }
    return snapshot;
  };
  await read();
  const seconds = options.intervalSeconds ?? DEFAULT_SERVICES_WATCH_SECONDS;
  let reading: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    reading ??= read().finally(() => {
      reading = undefined;
    });
  }, seconds * 1000);
  timer.unref();
  return {
    current: () => snapshot,
    refresh: read,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await reading;
    },
  };
}
