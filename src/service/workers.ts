/**
 * An API binary run as N server processes sharing one listening port (node:cluster), as
 * the real services run several WSGI processes (`baton placement serve --workers N`). The
 * primary only supervises: it forwards SIGTERM/SIGINT so every worker finishes its requests
 * in flight, and exits when they have. A worker that dies unasked is reported and the
 * primary stops the rest (a supervisor such as systemd restarts the service; a half-dead
 * pool would hide the failure).
 */
import cluster, { type Worker } from 'node:cluster';

/** Whether this process is a worker of a supervised pool. */
export function isWorkerProcess(): boolean {
  return cluster.isWorker;
}

/** K in worker K of a pool (`--workers N`, 1 to N); undefined in a process serving alone. */
export function workerNumber(): number | undefined {
  return cluster.isWorker ? cluster.worker?.id : undefined;
}

/**
 * The services-table host of this process: `host` itself, or `host/worker-K` in worker K of
 * a pool (`--workers N`). Each worker is its own row, heartbeating for itself, so a hung
 * worker shows as dead on its own; K (1 to N, as the primary numbers them) rather than the pid
 * keeps the key stable, so a restarted pool replaces its rows instead of adding new ones.
 */
export function workerQualifiedHost(host: string): string {
  const id = workerNumber();
  return id === undefined ? host : `${host}/worker-${id}`;
}

/** A worker that has stopped serving closes its channel to the primary, so it can exit. */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}

/** Where superviseWorkers writes. */
export interface WorkersIo {
  /** Writes a line. */
  readonly out: (line: string) => void;
  /** Writes error text. */
  readonly err: (text: string) => void;
}

/** Runs `count` workers of `binary` until stopped; true when every one ended cleanly. */
export async function superviseWorkers(
  binary: string,
  count: number,
  io: WorkersIo,
  stopped: () => Promise<string>,
): Promise<boolean> {
  const workers: Worker[] = [];
  let stopping = false;
  let failed = false;
  const exits = new Set<Promise<void>>();
  for (let i = 0; i < count; i++) {
    const worker = cluster.fork();
    workers.push(worker);
    exits.add(
      new Promise((resolve) => {
        worker.once('exit', (code, signal) => {
          if (!stopping) {
            failed = true;
            io.err(
              `baton: error: ${binary} worker ${worker.process.pid} exited (${signal ?? `status ${code}`}); stopping the others\n`,
            );
            stopAll();
          } else if (code !== 0 && code !== null) {
            failed = true;
          }
          resolve();
        });
      }),
    );
  }
  const stopAll = () => {
    stopping = true;
    for (const worker of workers) {
      if (worker.isDead()) continue;
      worker.process.kill('SIGTERM');
    }
  };
  // SIGHUP reloads each worker's settings (process-reload.ts); the primary has none to reload.
  const reload = () => {
    for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGHUP');
  };
  process.on('SIGHUP', reload);
  io.out(`${binary}: ${count} worker processes`);
  const signal = await Promise.race([stopped(), Promise.all(exits).then(() => 'exit')]).finally(
    () => process.off('SIGHUP', reload),
  );
  if (signal !== 'exit') {
    io.out(`${binary} stopping (${signal}): workers finish their requests in flight`);
    stopAll();
  }
  await Promise.all(exits);
  return !failed;
}
