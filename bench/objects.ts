/**
 * Versioned-object micro-benchmarks, measured on process CPU time (as the
 * oslo.versionedobjects baseline in test/fixtures/ovo/README.md was).
 * The Node is the one of that baseline: every field set, 20 keys in
 * properties and driver_info, a 4-key meta, two datetimes. Each operation runs
 * in a fresh Node process, which answers requests for samples of ~0.2 s of CPU
 * each; an operation's figure is its best sample. The last line is one JSON
 * object of ops/s, comparable with the Python run.
 *
 * When Debian's python3-oslo.versionedobjects and python3-ironic are installed
 * (`apt-get install python3-oslo.versionedobjects python3-ironic`), the same
 * operations run on the real library too (support/oslo_objects.py), sample by
 * sample in turn with Baton's, both pinned to the CPU that is fastest at the
 * start (or BENCH_CPU), and the ratios are taken against those figures.
 * The reason: this VM's speed moves by 2x from day to day and from one minute
 * to the next, for both languages, so the two sides of a ratio are sampled in
 * the same moments. Otherwise the ratios are against the figures recorded in
 * that README.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  fingerprint,
  ObjectSerializer,
  OffsetDateTime,
  toPrimitive,
  type VersionedObject,
} from '../src/objects/index.ts';
import { ReleasePin } from '../src/releases/index.ts';
import { FAMILY_RELEASES, Node, newRegistry } from '../test/objects/support/ironic-family.ts';

/** oslo.versionedobjects 3.0.1 as recorded in test/fixtures/ovo/README.md, CPU time, median of 3 runs (ops/s). */
const OSLO_RECORDED: Record<string, number> = {
  serialize_latest: 17_681,
  serialize_pinned: 5_705,
  deserialize_latest: 21_777,
  deserialize_old_to_latest: 14_001,
  set_10_fields: 100_051,
  get_changes: 49_490,
  fingerprint: 5_524,
};

const twenty = (prefix: string): Record<string, unknown> =>
  Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [
      `${prefix}_${i}`,
      i % 3 === 0 ? i * 1024 : i % 3 === 1 ? `value-${i}` : { nested: i },
    ]),
  );

function fullNode(): VersionedObject<typeof Node.fields> {
  return Node.create({
    id: 42,
    uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    name: 'node-01',
    driver: 'ipmi',
    extra: {},
    properties: twenty('prop'),
    driver_info: twenty('ipmi'),
    power_state: 'power on',
    provision_state: 'active',
    maintenance: false,
    chassis_id: 3,
    version: '1.15',
    meta: { owner: 'team-a', rack: 'R12', slot: 4, flags: ['gpu'] },
    created_at: OffsetDateTime.parse('2023-05-06T07:08:09.123456Z'),
    updated_at: OffsetDateTime.parse('2024-02-29T23:59:59.5+05:30'),
  });
}

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

let sink: unknown;

/** A batch of calls that takes at least 20 ms of CPU, so timer reads stay negligible. */
function calibrate(run: () => unknown): number {
  let batch = 1;
  for (;;) {
    const start = cpuSeconds();
    for (let i = 0; i < batch; i++) sink = run();
    if (cpuSeconds() - start > 0.02) return batch;
    batch *= 2;
  }
}

/** ops/s over about 0.2 s of process CPU time. */
function sample(run: () => unknown, batch: number): number {
  let ops = 0;
  const start = cpuSeconds();
  let elapsed = 0;
  do {
    for (let i = 0; i < batch; i++) sink = run();
    ops += batch;
    elapsed = cpuSeconds() - start;
  } while (elapsed < 0.2);
  return ops / elapsed;
}

const node = fullNode();
const registry = newRegistry();
const pinned = new ObjectSerializer(registry, ReleasePin.resolve(FAMILY_RELEASES, 'old'));
const receiver = new ObjectSerializer(registry);
const latestPrimitive = JSON.parse(JSON.stringify(toPrimitive(node)));
const oldPrimitive = JSON.parse(JSON.stringify(pinned.serializeEntity(node)));
const properties = twenty('prop');
const driverInfo = twenty('ipmi');
const when = new Date('2024-01-02T03:04:05.678Z');
const target = fullNode();

const benches: Record<string, () => unknown> = {
  serialize_latest: () => toPrimitive(node),
  serialize_pinned: () => pinned.serializeEntity(node),
  deserialize_latest: () => registry.fromPrimitive(latestPrimitive),
  deserialize_old_to_latest: () => receiver.deserializeEntity(oldPrimitive),
  set_10_fields: () => {
    target.assign('name', 'node-02');
    target.assign('driver', 'redfish');
    target.assign('power_state', 'power off');
    target.assign('provision_state', 'available');
    target.assign('version', '1.15');
    target.assign('maintenance', true);
    target.assign('chassis_id', '7');
    target.assign('uuid', 'e3f0c7b6-5a1d-4c2e-9f8a-0b1c2d3e4f50');
    target.assign('updated_at', when);
    target.assign('properties', properties);
    return target.assign('driver_info', driverInfo);
  },
  get_changes: () => node.getChanges(),
  fingerprint: () => fingerprint(Node),
};

/** Answers each line of stdin (an operation's name) with one sample, as a JSON line. */
function serveSamples(): void {
  const batches = new Map<string, number>();
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const name = line.trim();
    const run = benches[name];
    if (run === undefined) {
      console.error(`no benchmark ${name}; known: ${Object.keys(benches).join(', ')}`);
      process.exit(64);
    }
    const batch = batches.get(name) ?? calibrate(run);
    batches.set(name, batch);
    console.log(JSON.stringify({ [name]: Math.round(sample(run, batch)) }));
  });
  lines.on('close', () => {
    if (sink === Symbol.for('never')) console.log(sink);
  });
}

/** A process that measures one sample per request, over stdin and stdout. */
class SampleWorker {
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #lines: Interface;
  readonly #waiting: ((line: string | undefined) => void)[] = [];
  #stderr = '';

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
    this.#child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-2000);
    });
    this.#child.on('error', (error) => {
      this.#stderr += String(error);
    });
    this.#lines = createInterface({ input: this.#child.stdout });
    this.#lines.on('line', (line) => this.#waiting.shift()?.(line));
    this.#lines.on('close', () => {
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }

  /** ops/s of one sample of the operation; throws with the worker's last error line when it died. */
  async sample(name: string): Promise<number> {
    const answer = new Promise<string | undefined>((resolve) => this.#waiting.push(resolve));
    this.#child.stdin.write(`${name}\n`);
    const line = await answer;
    const value =
      line === undefined ? undefined : (JSON.parse(line) as Record<string, number>)[name];
    if (value === undefined) {
      const last = this.#stderr.trim().split('\n').at(-1) ?? 'no output';
      throw new Error(`${name}: the measuring process stopped: ${last}`);
    }
    return value;
  }

  close(): void {
    this.#child.stdin.end();
  }
}

const TASKSET = '/usr/bin/taskset';
/**
 * The command pinned to one CPU (both implementations on the same one) when taskset is there:
 * the two vCPUs of this VM can differ in speed by 2x for minutes at a time, and a process
 * the scheduler leaves on the slow one would make the ratio measure the CPUs, not the code.
 */
function onCpu(cpu: string, command: string, args: string[]): [string, string[]] {
  return cpu === 'any' ? [command, args] : [TASKSET, ['--cpu-list', cpu, command, ...args]];
}

/** A process that measures Baton's operations, pinned to `cpu`. */
function batonWorker(cpu: string): SampleWorker {
  return new SampleWorker(
    ...onCpu(cpu, process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)]),
    { ...process.env, BENCH_SERVE: '1' },
  );
}

/**
 * The CPU to measure on: BENCH_CPU when given (`any` for no pinning), else the one that runs a
 * probe (Baton's get_changes, best of 2 samples) fastest now, as a quiet machine would.
 * Both implementations are then measured there, so the choice cannot favour one of them.
 */
async function chooseCpu(): Promise<{ cpu: string; why: string }> {
  const asked = process.env.BENCH_CPU;
  if (asked !== undefined) return { cpu: asked, why: 'BENCH_CPU' };
  if (!existsSync(TASKSET)) return { cpu: 'any', why: `${TASKSET} is missing` };
  const probes: [string, number][] = [];
  for (let index = 0; index < availableParallelism(); index++) {
    const cpu = String(index);
    const worker = batonWorker(cpu);
    try {
      await worker.sample('get_changes');
      const best = Math.max(await worker.sample('get_changes'), await worker.sample('get_changes'));
      probes.push([cpu, best]);
    } catch (error) {
      // A CPU outside this process's affinity (a container's cpuset) is not a candidate.
      console.error(`CPU ${cpu} left out: ${(error as Error).message}`);
    } finally {
      worker.close();
    }
  }
  probes.sort((a, b) => b[1] - a[1]);
  const [fastest] = probes;
  if (fastest === undefined) return { cpu: 'any', why: 'no CPU to probe' };
  const table = probes.map(([cpu, ops]) => `CPU ${cpu} ${Math.round(ops).toLocaleString('en')}/s`);
  return { cpu: fastest[0], why: `the fastest on a get_changes probe: ${table.join(', ')}` };
}

const OVO_DIR = fileURLToPath(new URL('../test/fixtures/ovo', import.meta.url));
const DEBIAN_PYTHON = '/usr/bin/python3';

/** A worker measuring the real oslo.versionedobjects, or why there is none. */
async function osloWorker(cpu: string): Promise<SampleWorker | string> {
  if (process.env.BENCH_OSLO === 'recorded') return 'not asked (BENCH_OSLO=recorded)';
  if (!existsSync(DEBIAN_PYTHON)) return `${DEBIAN_PYTHON} is missing`;
  const script = fileURLToPath(new URL('./support/oslo_objects.py', import.meta.url));
  const worker = new SampleWorker(...onCpu(cpu, DEBIAN_PYTHON, [script, OVO_DIR, '--serve']));
  try {
    await worker.sample('get_changes');
    return worker;
  } catch (error) {
    worker.close();
    return `${(error as Error).message} (apt-get install python3-oslo.versionedobjects python3-ironic)`;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

interface Figures {
  baton: number;
  oslo: number | undefined;
  /** Baton's sample over oslo's next one, per pair. */
  pairRatios: number[];
}

/**
 * Samples one operation: a fresh Node process (the JIT and heap state one operation leaves,
 * such as megamorphic call sites, must not slow the next), one warm-up sample, then pairs of
 * samples, Baton's then oslo's.
 */
async function measureOperation(
  name: string,
  cpu: string,
  oslo: SampleWorker | undefined,
  pairs: number,
): Promise<Figures> {
  const baton = batonWorker(cpu);
  try {
    await baton.sample(name);
    await oslo?.sample(name);
    const figures: Figures = { baton: 0, oslo: undefined, pairRatios: [] };
    for (let pair = 0; pair < pairs; pair++) {
      const ours = await baton.sample(name);
      figures.baton = Math.max(figures.baton, ours);
      if (oslo === undefined) continue;
      const theirs = await oslo.sample(name);
      figures.oslo = Math.max(figures.oslo ?? 0, theirs);
      figures.pairRatios.push(ours / theirs);
    }
    return figures;
  } finally {
    baton.close();
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',') ?? Object.keys(benches);
  const unknown = only.filter((name) => benches[name] === undefined);
  if (unknown.length > 0) {
    console.error(`no benchmark ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
    process.exit(64);
  }
  const pairs = Number(process.env.BENCH_PAIRS ?? 8);
  if (!Number.isInteger(pairs) || pairs < 1) {
    console.error('BENCH_PAIRS must be a whole number of 1 or more');
    process.exit(64);
  }
  const { cpu, why } = await chooseCpu();
  console.error(`measuring on CPU ${cpu} (${why})`);
  const oslo = await osloWorker(cpu);
  const live = typeof oslo !== 'string';
  const figures: Record<string, Figures> = {};
  try {
    for (const name of only) {
      figures[name] = await measureOperation(name, cpu, live ? oslo : undefined, pairs);
      console.error(`${name} measured`);
    }
  } finally {
    if (live) oslo.close();
  }
  console.log(
    live
      ? `oslo ops/s: the real oslo.versionedobjects, sampled in turn with Baton (${pairs} samples of ~0.2 s CPU each; the best of each side; CPU ${cpu}, ${why})`
      : `oslo ops/s: recorded figures (${oslo})`,
  );
  console.log(
    'operation                   baton ops/s    oslo ops/s   ratio  median pair ratio   vs recorded',
  );
  const results: Record<string, number> = {};
  for (const [name, figure] of Object.entries(figures)) {
    const batonOps = Math.round(figure.baton);
    results[name] = batonOps;
    const base = figure.oslo ?? OSLO_RECORDED[name] ?? Number.NaN;
    const recorded = OSLO_RECORDED[name] ?? Number.NaN;
    const pairRatio =
      figure.pairRatios.length > 0 ? `${median(figure.pairRatios).toFixed(1)}x` : '-';
    console.log(
      `${name.padEnd(26)} ${batonOps.toLocaleString('en').padStart(12)} ${Math.round(base).toLocaleString('en').padStart(13)} ${(batonOps / base).toFixed(1).padStart(6)}x  ${pairRatio.padStart(17)}   ${(batonOps / recorded).toFixed(1).padStart(10)}x`,
    );
  }
  if (live) {
    const osloFigures = Object.fromEntries(
      Object.entries(figures).map(([name, figure]) => [name, Math.round(figure.oslo ?? 0)]),
    );
    console.log(`oslo: ${JSON.stringify(osloFigures)}`);
  }
  console.log(JSON.stringify(results));
}

if (process.env.BENCH_SERVE === '1') serveSamples();
else await main();
