/**
 * RPC round trips between two processes, as between an API tier and a
 * conductor: a client pinned to the old release calls `update_node` with a
 * Node (sent at 1.14, upgraded to 1.15 by the server) and gets the Node back
 * (read at 1.15), over http (JSON-RPC, services table in a scratch SQLite
 * file) and amqp (the local RabbitMQ), at concurrency 1 and 32. Each run:
 * a warm-up, then a fixed wall-clock window; latency per call.
 * The last line is one JSON object.
 *
 * BENCH_RPC_WINDOW_MS sets the window (default 4000); RPC_SERVER_NODE_ARGS='--cpu-prof
 * --cpu-prof-dir=/work/prof' profiles the server process (run the client under
 * `node --cpu-prof --import tsx bench/rpc.ts` to profile it too).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/index.ts';
import { ObjectRegistry } from '../src/objects/index.ts';
import { ReleasePin } from '../src/releases/index.ts';
import {
  createTransport,
  objectRpcSerializer,
  RpcClient,
  type RpcTransport,
  readRpcConfig,
} from '../src/rpc/index.ts';
import { servicesTablePeers } from '../src/service/index.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import { IRONIC_NAMESPACE, Node } from '../test/objects/support/ironic-family.ts';
import { CONDUCTOR_RELEASES } from '../test/rpc/support/conductor-family.ts';
import { AMQP_URL } from '../test/rpc/support/transports.ts';

const WINDOW_MS = Number(process.env.BENCH_RPC_WINDOW_MS ?? 4000);
const WARMUP_MS = 1000;
const CONCURRENCY = [1, 32] as const;
const TARGETS = 'amqp c32 >= 3000 calls/s with p99 < 50 ms; http >= 5000 calls/s';

interface Figures {
  calls_per_s: number;
  p50_ms: number;
  p99_ms: number;
}

function startServer(args: string[]): Promise<ChildProcess> {
  const script = fileURLToPath(new URL('./support/rpc-server.ts', import.meta.url));
  const child = fork(script, args, {
    execArgv: [
      ...(process.env.RPC_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
      '--import',
      'tsx',
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`rpc server exited with ${code}`)));
    child.once('message', (message) =>
      message === 'ready' ? resolve(child) : reject(new Error(String(message))),
    );
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.send('stop');
  });
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function measure(client: RpcClient, concurrency: number, windowMs: number): Promise<Figures> {
  const node = Node.create({
    id: 1,
    uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    name: 'node-1',
    driver: 'ipmi',
    maintenance: false,
    power_state: 'power off',
    provision_state: 'available',
    properties: { cpus: 8, memory_mb: 16384, local_gb: 100 },
    meta: { rack: 'r1', row: 3 },
  });
  const latencies: number[] = [];
  const until = Date.now() + windowMs;
  const worker = async () => {
    while (Date.now() < until) {
      const start = process.hrtime.bigint();
      const result = await client.call('update_node', { node });
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      if ((result as typeof node).get('power_state') !== 'power on')
        throw new Error('wrong result');
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = Float64Array.from(latencies).sort();
  const round = (n: number, digits: number) => Number(n.toFixed(digits));
  return {
    calls_per_s: Math.round(latencies.length / seconds),
    p50_ms: round(percentile(sorted, 50), 2),
    p99_ms: round(percentile(sorted, 99), 2),
  };
}

async function benchTransport(
  kind: 'http' | 'amqp',
  transport: RpcTransport,
  topic: string,
): Promise<Record<string, Figures>> {
  const pin = ReleasePin.resolve(CONDUCTOR_RELEASES, 'old');
  const client = new RpcClient({
    transport,
    topic,
    version: '1.1',
    versionCap: pin.rpcVersionCap('1.2'),
    serializer: objectRpcSerializer(new ObjectRegistry(IRONIC_NAMESPACE, [Node]), pin),
    timeoutMs: 10_000,
  });
  const results: Record<string, Figures> = {};
  for (const c of CONCURRENCY) {
    await measure(client, c, WARMUP_MS);
    const figures = await measure(client, c, WINDOW_MS);
    results[`c${c}`] = figures;
    console.log(
      `${kind.padEnd(5)} c${String(c).padEnd(3)} ${String(figures.calls_per_s).padStart(6)} calls/s  p50 ${figures.p50_ms.toFixed(2)} ms  p99 ${figures.p99_ms.toFixed(2)} ms`,
    );
  }
  return results;
}

async function benchHttp(): Promise<Record<string, Figures>> {
  const scratch = await createScratchDatabase('sqlite');
  const topic = `bench_${randomBytes(3).toString('hex')}`;
  const server = await startServer(['http', 'http://127.0.0.1:0', topic, scratch.url]);
  const db = await openDatabase(scratch.url);
  const transport = createTransport(readRpcConfig({ rpc_transport: 'http' }), {
    peers: servicesTablePeers(db),
  });
  try {
    return await benchTransport('http', transport, topic);
  } finally {
    await transport.close();
    await stopServer(server);
    await db.close();
    await scratch.drop();
  }
}

async function benchAmqp(): Promise<Record<string, Figures>> {
  const topic = `bench_${randomBytes(3).toString('hex')}`;
  // An exchange of its own: one left by another run (or with other flags) cannot get in the way.
  const exchange = `baton_bench_${randomBytes(3).toString('hex')}`;
  process.env.BATON_BENCH_EXCHANGE = exchange; // the server process inherits it
  const server = await startServer(['amqp', AMQP_URL, topic]);
  const config = readRpcConfig({
    rpc_transport: 'amqp',
    rpc_transport_url: AMQP_URL,
    rpc_exchange: exchange,
  });
  const transport = createTransport(config);
  try {
    return await benchTransport('amqp', transport, topic);
  } finally {
    await transport.close();
    await stopServer(server);
    // The per-topic queues and the exchange outlive their connections: remove this run's.
    const { connect } = await import('amqplib');
    const model = await connect(AMQP_URL);
    const channel = await model.createChannel();
    await channel.deleteQueue(topic);
    await channel.deleteQueue(`${topic}.bench-conductor`);
    await channel.deleteExchange(`${topic}_fanout`);
    await channel.deleteExchange(exchange);
    await model.close();
  }
}

console.log(`RPC round trips, client and server in separate processes; targets: ${TARGETS}`);
const http = await benchHttp();
const amqp = await benchAmqp();
console.log(JSON.stringify({ http, amqp }));
