/**
 * A minimal HTTP/1.1 keep-alive load generator, run as a child process, cheap enough that the
 * server (not the loader) is the bottleneck. Connections for a port and request are opened once
 * and kept for every later run of that request, so no run pays for connecting. One request in flight per
 * connection; the first response on each connection is parsed to learn its length (status
 * line, Date and body never change size for a fixed route), after which responses are
 * counted by bytes. A response of another size leaves bytes over and is reported as bad.
 *
 * Messages: {port, connections, durationMs, request} -> {done, bad, cpuMicros, error?}. Requests in
 * flight at the deadline are let finish (and counted), so connections are idle between runs.
 */
import net from 'node:net';

interface Connection {
  socket: net.Socket;
  length: number;
  pending: number;
  first: Buffer;
}

interface Run {
  done: number;
  bad: number;
  active: number;
  deadline: number;
  error?: string;
  finish: () => void;
}

interface Pool {
  connections: Connection[];
  request: Buffer;
  run?: Run;
}

const HEAD_END = Buffer.from('\r\n\r\n');
/** One pool per port and request: each request is answered at its own length. */
const pools = new Map<string, Pool>();

/** Total length of the first response in `buffer`: 0 while incomplete, -1 if not a 200. */
function responseLength(buffer: Buffer): number {
  const end = buffer.indexOf(HEAD_END);
  if (end < 0) return 0;
  const head = buffer.toString('latin1', 0, end).toLowerCase();
  if (!head.startsWith('http/1.1 200')) return -1;
  const at = head.indexOf('content-length:');
  const total = end + 4 + (at < 0 ? 0 : Number.parseInt(head.slice(at + 15), 10));
  return buffer.length >= total ? total : 0;
}

function connect(pool: Pool, port: number): Promise<Connection> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const connection: Connection = { socket, length: 0, pending: 0, first: Buffer.alloc(0) };
  const answered = () => {
    const run = pool.run as Run;
    run.done++;
    if (Date.now() < run.deadline) socket.write(pool.request);
    else if (--run.active === 0) run.finish();
  };
  socket.on('data', (chunk: Buffer) => {
    if (connection.length === 0) {
      connection.first = Buffer.concat([connection.first, chunk]);
      const found = responseLength(connection.first);
      if (found === 0) return;
      if (found < 0) {
        (pool.run as Run).bad++;
        socket.destroy();
        return;
      }
      connection.length = found;
      connection.pending = connection.first.length - found;
      answered();
      return;
    }
    connection.pending += chunk.length;
    if (connection.pending >= connection.length) {
      connection.pending -= connection.length;
      answered();
    }
  });
  socket.on('error', (error) => {
    if (pool.run) pool.run.error = String(error);
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(connection));
    socket.once('error', reject);
  });
}

async function poolFor(port: number, connections: number, request: string): Promise<Pool> {
  const key = `${port} ${request}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = { connections: [], request: Buffer.from(request, 'latin1') };
    pools.set(key, pool);
    const opening: Promise<Connection>[] = [];
    for (let c = 0; c < connections; c++) opening.push(connect(pool, port));
    pool.connections = await Promise.all(opening);
  }
  return pool;
}

export interface LoadResult {
  done: number;
  bad: number;
  /** This process's CPU time (user and system) during the run, in microseconds. */
  cpuMicros: number;
  error?: string;
}

async function run(message: LoadMessage): Promise<LoadResult> {
  const pool = await poolFor(message.port, message.connections, message.request);
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve) => {
    const current: Run = {
      done: 0,
      bad: 0,
      active: pool.connections.length,
      deadline: Date.now() + message.durationMs,
      finish: () => {
        const leftOver = pool.connections.filter((c) => c.pending !== 0).length;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMicros = cpu.user + cpu.system;
        resolve({
          done: current.done,
          bad: current.bad + leftOver,
          cpuMicros,
          error: current.error,
        });
      },
    };
    pool.run = current;
    for (const connection of pool.connections) connection.socket.write(pool.request);
  });
}

export interface LoadMessage {
  port: number;
  connections: number;
  durationMs: number;
  /** The raw request, written as is on every connection. */
  request: string;
}

process.on('message', (message: LoadMessage) => {
  run(message).then(
    (result) => process.send?.(result),
    (error) => process.send?.({ done: 0, bad: 0, cpuMicros: 0, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.('ready');
