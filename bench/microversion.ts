/**
 * Requests/s of a trivial Fastify route with and without the microversion plugin, over real
 * loopback sockets. The servers are worker threads of this process (separate V8 isolates, so
 * one's JIT state cannot slow another), two of each kind: a server instance tends to stay fast
 * or slow for its whole life, and the gap between two identical ones shows the noise floor of
 * the machine. The load comes from a child process over raw keep-alive sockets. Rounds rotate
 * the order; the overhead is the median over rounds of sum(plugin) / sum(bare). The run is
 * bounded (about 30 s) and stops by itself.
 *
 *   npm run bench:microversion
 *   ROUNDS=4 SECONDS=0.3 npm run bench:microversion      # quicker
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { VersionNegotiator } from '../src/microversion/index.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 12);
const SECONDS = Number(process.env.SECONDS ?? 0.4);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 1000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const HARD_LIMIT_MS = 60_000;
const VERSION_HEADER = 'placement 1.20';

const config = {
  serviceType: 'placement',
  min: '1.0',
  max: '1.39',
  headers: { mode: 'new' },
  malformedStatus: 400,
  formatError: (report: { status: number; title: string; detail: string }) => ({
    errors: [{ status: report.status, title: report.title, detail: report.detail }],
  }),
} as const;

// One server per worker, as an ES module from a data: URL. The TypeScript plugin is imported
// as ESM through tsx's API, as the service would run it (module hooks given to this process
// do not reach Node 20 workers, and tsx's CommonJS path would add a getter per import call).
const SERVER = `
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
const { default: Fastify } = await import(workerData.fastify);
const app = Fastify({ logger: false });
if (workerData.variant === 'plugin') {
  const tsx = await import(workerData.tsx);
  tsx.register();
  const mv = await import(workerData.module);
  const formatError = (r) => ({ errors: [{ status: r.status, title: r.title, detail: r.detail }] });
  const config = { ...workerData.config, formatError };
  await app.register(mv.microversionPlugin, { negotiator: new mv.VersionNegotiator(config) });
}
app.get('/things', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: 0 });
// On-CPU time of this thread in ns (Linux); unaffected by time spent waiting for a core.
const cpu = () => {
  try { return Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]); }
  catch { return NaN; }
};
parentPort.postMessage(app.server.address().port);
parentPort.on('message', (message) => {
  if (message === 'cpu') parentPort.postMessage(cpu());
  else app.close().then(() => parentPort.close());
});
`;

// A minimal HTTP/1.1 keep-alive load loop, cheap enough that the server (not the loader) is
// the bottleneck: one request in flight per connection; the first response on each connection
// is parsed to learn its length (status line, Date and body never change size for this
// route), after which responses are counted by bytes. A response of another size leaves bytes
// over and is reported as bad. Plain CommonJS because it runs as \`node -e\` in the child.
const LOADER = `
const net = require('node:net');
const REQUEST = Buffer.from(
  'GET /things HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n' +
  'OpenStack-API-Version: placement 1.20\\r\\nConnection: keep-alive\\r\\n\\r\\n');
const END = Buffer.from('\\r\\n\\r\\n');
function responseLength(buffer) {
  const end = buffer.indexOf(END);
  if (end < 0) return 0;
  const head = buffer.toString('latin1', 0, end).toLowerCase();
  if (!head.startsWith('http/1.1 200')) return -1;
  const at = head.indexOf('content-length:');
  const total = end + 4 + (at < 0 ? 0 : parseInt(head.slice(at + 15), 10));
  return buffer.length >= total ? total : 0;
}
function run(port, connections, durationMs) {
  return new Promise((resolve, reject) => {
    let done = 0, bad = 0, open = connections;
    const deadline = Date.now() + durationMs;
    for (let c = 0; c < connections; c++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      let length = 0, pending = 0, first = Buffer.alloc(0);
      const next = () => {
        done++;
        if (Date.now() >= deadline) socket.end(); else socket.write(REQUEST);
      };
      socket.on('connect', () => socket.write(REQUEST));
      socket.on('data', (chunk) => {
        if (length === 0) {
          first = Buffer.concat([first, chunk]);
          const found = responseLength(first);
          if (found === 0) return;
          if (found < 0) { bad++; socket.destroy(); return; }
          length = found;
          pending = first.length - found;
          next();
          return;
        }
        pending += chunk.length;
        if (pending >= length) { pending -= length; next(); }
      });
      socket.on('error', reject);
      socket.on('close', () => {
        if (pending !== 0) bad++;
        if (--open === 0) resolve({ done, bad });
      });
    }
  });
}
process.on('message', ({ port, connections, durationMs }) => {
  run(port, connections, durationMs).then(
    (result) => process.send(result),
    (error) => process.send({ done: 0, bad: 0, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send('ready');
`;
interface LoadResult {
  done: number;
  bad: number;
  error?: string;
}

type Variant = 'bare' | 'plugin';
// Two servers of each kind: one instance can be lucky or unlucky for its whole life.
const SERVERS = ['bare-a', 'plugin-a', 'bare-b', 'plugin-b'] as const;
type Server = (typeof SERVERS)[number];

function variantOf(server: Server): Variant {
  return server.startsWith('plugin') ? 'plugin' : 'bare';
}

function startServer(variant: Variant): Promise<{ worker: Worker; port: number }> {
  const { formatError: _, ...data } = config;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(SERVER)}`), {
    workerData: {
      variant,
      config: data,
      fastify: import.meta.resolve('fastify'),
      tsx: import.meta.resolve('tsx/esm/api'),
      module: new URL('../src/microversion/index.ts', import.meta.url).href,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (port: number) => resolve({ worker, port }));
  });
}

function startLoader(): Promise<ChildProcess> {
  const loader = spawn(process.execPath, ['-e', LOADER], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    loader.once('error', reject);
    loader.once('message', () => resolve(loader));
  });
}

function load(loader: ChildProcess, port: number, durationMs: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    loader.once('message', (result: LoadResult) => {
      if (result.error) reject(new Error(result.error));
      else if (result.bad > 0) reject(new Error(`${result.bad} bad responses from port ${port}`));
      else resolve(result);
    });
    loader.send({ port, connections: CONNECTIONS, durationMs });
  });
}

interface Sample {
  reqPerSec: number;
  /** Server thread on-CPU time per request, in microseconds (NaN off Linux). */
  cpuMicros: number;
}

function threadCpu(worker: Worker): Promise<number> {
  return new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage('cpu');
  });
}

async function sample(
  loader: ChildProcess,
  server: { worker: Worker; port: number },
): Promise<Sample> {
  const cpuBefore = await threadCpu(server.worker);
  const start = performance.now();
  const { done } = await load(loader, server.port, SECONDS * 1000);
  const seconds = (performance.now() - start) / 1000;
  const cpuNs = (await threadCpu(server.worker)) - cpuBefore;
  return { reqPerSec: done / seconds, cpuMicros: cpuNs / 1000 / done };
}

/** Checks over a socket that only the plugin server answers with the version header. */
async function checkServers(servers: Record<Server, { port: number }>): Promise<void> {
  for (const server of SERVERS) {
    const variant = variantOf(server);
    const response = await fetch(`http://127.0.0.1:${servers[server].port}/things`, {
      headers: { 'OpenStack-API-Version': VERSION_HEADER },
    });
    await response.arrayBuffer();
    const versioned = response.headers.get('OpenStack-API-Version') === VERSION_HEADER;
    if (response.status !== 200 || versioned !== (variant === 'plugin')) {
      throw new Error(`${variant} server answered unexpectedly`);
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] as number;
  return sorted.length % 2 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/**
 * Cost of the framework-free core alone, per request. Each call gets a freshly allocated header
 * value, as from the HTTP parser; the cost of allocating it is measured apart and subtracted.
 */
function resolveNanoseconds(): number {
  const negotiator = new VersionNegotiator(config);
  const raw = Buffer.from(VERSION_HEADER);
  const fresh = () => ({ host: '127.0.0.1', 'openstack-api-version': raw.toString('latin1') });
  const time = (work: () => unknown): number => {
    const iterations = 1_000_000;
    for (let i = 0; i < 100_000; i++) work();
    const start = performance.now();
    for (let i = 0; i < iterations; i++) work();
    return ((performance.now() - start) * 1e6) / iterations;
  };
  const baseline = time(fresh);
  return Math.max(0, time(() => negotiator.resolve(fresh())) - baseline);
}

async function main(): Promise<void> {
  const guard = setTimeout(() => {
    console.error('benchmark exceeded its time limit');
    process.exit(2);
  }, HARD_LIMIT_MS);
  guard.unref();

  const started = await Promise.all(SERVERS.map((name) => startServer(variantOf(name))));
  const servers = Object.fromEntries(SERVERS.map((name, i) => [name, started[i]])) as Record<
    Server,
    { worker: Worker; port: number }
  >;
  const loader = await startLoader();
  try {
    await checkServers(servers);
    for (const name of SERVERS) await load(loader, servers[name].port, WARMUP_MS);
    const samples = Object.fromEntries(SERVERS.map((n) => [n, [] as Sample[]])) as Record<
      Server,
      Sample[]
    >;
    for (let index = 0; index < ROUNDS; index++) {
      const order = SERVERS.map((_, i) => SERVERS[(i + index) % SERVERS.length] as Server);
      for (const name of order) samples[name].push(await sample(loader, servers[name]));
      const line = order.map((n) => `${n} ${Math.round(samples[n][index]?.reqPerSec ?? 0)}`);
      console.log(`round ${index + 1}: ${line.join(', ')} req/s`);
    }
    report(samples);
  } finally {
    loader.disconnect();
    for (const { worker } of started) {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    }
  }
}

/** Per round: plugin pair against bare pair, and each pair's own spread (the noise floor). */
function compare(samples: Record<Server, Sample[]>, metric: (s: Sample) => number) {
  const overhead: number[] = [];
  const noise: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const at = (name: Server) => metric(samples[name][round] as Sample);
    overhead.push(((at('plugin-a') + at('plugin-b')) / (at('bare-a') + at('bare-b')) - 1) * 100);
    noise.push(Math.abs(at('bare-b') / at('bare-a') - 1) * 100);
    noise.push(Math.abs(at('plugin-b') / at('plugin-a') - 1) * 100);
  }
  return { overhead: median(overhead), noise: median(noise) };
}

function report(samples: Record<Server, Sample[]>): void {
  const medianOf = (name: Server, metric: (s: Sample) => number) =>
    median(samples[name].map(metric));
  const reqPerSec = (s: Sample) => s.reqPerSec;
  const cpuMicros = (s: Sample) => s.cpuMicros;
  // Fewer requests per second is overhead: compare the inverse of the rate.
  const throughput = compare(samples, (s) => 1 / s.reqPerSec);
  const cpu = compare(samples, cpuMicros);
  const resolveNs = resolveNanoseconds();
  const rates = SERVERS.map((n) => `${n} ${Math.round(medianOf(n, reqPerSec))}`).join(', ');
  const cpus = SERVERS.map((n) => `${n} ${medianOf(n, cpuMicros).toFixed(2)}`).join(', ');
  console.log(`median req/s: ${rates}`);
  console.log(`median server CPU us/request: ${cpus}`);
  console.log(
    `plugin overhead, req/s: ${throughput.overhead.toFixed(2)}% ` +
      `(noise floor ${throughput.noise.toFixed(2)}%)`,
  );
  console.log(
    `plugin overhead, server CPU per request: ${cpu.overhead.toFixed(2)}% ` +
      `(noise floor ${cpu.noise.toFixed(2)}%)`,
  );
  console.log(`core resolve(): ${resolveNs.toFixed(0)} ns per request; target: overhead < 5%`);
  const round2 = (value: number) => Number(value.toFixed(2));
  console.log(
    JSON.stringify({
      bench: 'microversion',
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
      connections: CONNECTIONS,
      reqPerSec: Object.fromEntries(
        SERVERS.map((n) => [n, samples[n].map((s) => Math.round(s.reqPerSec))]),
      ),
      cpuMicrosPerRequest: Object.fromEntries(
        SERVERS.map((n) => [n, round2(medianOf(n, cpuMicros))]),
      ),
      overheadPercent: round2(throughput.overhead),
      overheadNoiseFloorPercent: round2(throughput.noise),
      cpuOverheadPercent: round2(cpu.overhead),
      cpuNoiseFloorPercent: round2(cpu.noise),
      resolveNs: Number(resolveNs.toFixed(0)),
    }),
  );
}

await main();
