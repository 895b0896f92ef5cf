/**
 * The highest microversion an API process serves, following its pool (src/releases/
 * pool-api-max.ts): read from the services table when the process starts and again every
 * refresh interval, so an unpinned API beside a pinned one serves the pinned one's maximum
 * from its first request, and both rise together once the last pinned process has left. A
 * process still stopping counts: it may be answering requests. Each change is logged.
 */
import { type Database, type LivenessOptions, listServices } from '../db/index.ts';
import { type CapsInForce, poolApiMax } from '../releases/index.ts';
import type { ServiceDefinition } from './service-definition.ts';

export interface PoolApiMax {
  /** The maximum to serve now. */
  current(): string | undefined;
  /** Reads the services table again. */
  refresh(): Promise<void>;
  stop(): void;
}

export interface PoolApiMaxOptions {
  readonly liveness: LivenessOptions;
  readonly intervalSeconds: number;
  readonly log: { info(message: string): void; warn(message: string): void };
}

export async function followPoolApiMax(
  db: Database,
  service: ServiceDefinition,
  caps: CapsInForce,
  options: PoolApiMaxOptions,
): Promise<PoolApiMax> {
  const read = async () => {
    const rows = (await listServices(db, options.liveness)).filter(
      (row) => row.live && service.binaries.includes(row.binary),
    );
    return poolApiMax(service.releases, caps, rows);
  };
  let max = await read();
  const refresh = async () => {
    const next = await read();
    if (next !== max) {
      options.log.info(
        `API maximum now ${next ?? 'none'} (was ${max ?? 'none'}): the lowest the live processes of ${service.name} can serve`,
      );
      max = next;
    }
  };
  const timer = setInterval(() => {
    refresh().catch((error: unknown) =>
      options.log.warn(`could not read the services table for the API maximum: ${String(error)}`),
    );
  }, options.intervalSeconds * 1000);
  timer.unref();
  return { current: () => max, refresh, stop: () => clearInterval(timer) };
}
