/**
 * A Placement server for a benchmark to drive, Baton's or the real one, on a scratch database:
 * its port, the process to meter (Baton's; the real one runs several uWSGI processes) and how
 * to stop it.
 */
import { freePort, startPlacementServer, stopPlacementServer } from './placement-http.ts';
import { startRealPlacement } from './real-placement.ts';

export interface Served {
  readonly name: string;
  readonly port: number;
  /** The server process whose CPU can be metered; undefined for the real service. */
  readonly pid: number | undefined;
  readonly stop: () => Promise<void>;
}

/**
 * Baton's `placement serve` on `url`. PG_SOCKET=/var/run/postgresql makes it reach
 * PostgreSQL through its Unix socket. `args` go to `placement serve` after SERVER_ARGS.
 */
export async function startBaton(
  url: string,
  options: { name?: string; args?: readonly string[] } = {},
): Promise<Served> {
  const port = await freePort();
  const socketDir = process.env.PG_SOCKET;
  const serverUrl = socketDir && url.startsWith('postgresql:') ? `${url}?host=${socketDir}` : url;
  const server = await startPlacementServer(serverUrl, port, options.args);
  return {
    name: options.name ?? 'baton',
    port,
    pid: server.pid,
    stop: () => stopPlacementServer(server),
  };
}

/** The real Placement 8.0.0 on `url` with `processes` uWSGI processes. */
export async function startReal(url: string, processes: number): Promise<Served> {
  const port = await freePort();
  const real = await startRealPlacement(url, port, { processes });
  return { name: 'real 8.0.0', port, pid: undefined, stop: real.stop };
}
