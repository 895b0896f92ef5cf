/**
 * A bare metal service for a benchmark to drive, Baton's or the real Ironic 21.4.4, started
 * with the same settings: one API process (one worker), two conductors, a SQLite file (or the
 * scratch PostgreSQL or MariaDB database given), RPC
 * between the tiers over HTTP (Baton's http transport, the real JSON-RPC), fake hardware.
 * BENCH_SETTINGS is what both get; the benchmark prints it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRealIronic } from '../../test/support/real-ironic.ts';
import { stopDescendants } from './descendants.ts';
import { freePort } from './placement-http.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The options both services run with, by config file section (ironic.conf names). */
export const BENCH_SETTINGS = {
  api: { api_workers: '1' },
  conductor: {
    automated_clean: 'false',
    heartbeat_interval: '2',
  },
} as const;

export const BENCH_CONDUCTORS = 2;

export interface ServedBaremetal {
  readonly name: string;
  readonly url: string;
  /** The API process, whose CPU can be metered. */
  readonly apiPid: number | undefined;
  /** The conductor processes (Baton's; the real ones are not metered). */
  readonly conductorPids: readonly number[];
  /** Each conductor's host name (as nodes' `conductor` field names it) and current pid. */
  readonly conductors: () => readonly { readonly host: string; readonly pid: number | undefined }[];
  /** The directory holding each process's log (`conductor-N.log`, N from 1). */
  readonly logDir: string;
  /** SIGKILLs conductor `index` (from 0) and waits for its end. */
  readonly killConductor: (index: number) => Promise<void>;
  /**
   * Starts conductor `index` again, same host and configuration, and resolves once it has
   * started (its start-time work on the nodes it maps is done by then).
   */
  readonly restartConductor: (index: number) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** What a benchmark may change: the number of conductors, and options by section. */
export interface ServedOptions {
  readonly databaseUrl?: string;
  /** The API process's database URL when not `databaseUrl`'s (the same database, elsewhere). */
  readonly apiDatabaseUrl?: string;
  readonly conductors?: number;
  /** The real Ironic's conductor `index` (from 0) alone, over `config` (Baton's: unused). */
  readonly realConductorConfig?: (
    index: number,
  ) => Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Options for every process, by config file section, over BENCH_SETTINGS. */
  readonly config?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

function mergeSections(
  ...layers: (Readonly<Record<string, Readonly<Record<string, string>>>> | undefined)[]
): Record<string, Record<string, string>> {
  const merged: Record<string, Record<string, string>> = {};
  for (const layer of layers) {
    for (const [section, options] of Object.entries(layer ?? {})) {
      merged[section] = { ...merged[section], ...options };
    }
  }
  return merged;
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function ini(sections: Record<string, Record<string, string>>): string {
  return Object.entries(sections)
    .flatMap(([section, options]) => [
      `[${section}]`,
      ...Object.entries(options).map(([key, value]) => `${key} = ${value}`),
      '',
    ])
    .join('\n');
}

interface Child {
  readonly process: ChildProcess;
  readonly log: string;
}

/** A log file's text (the last 64 kB: enough to tell why a process died). */
function logText(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-65_536);
  } catch {
    return '';
  }
}

/** The process's log so far. */
function output(child: Child): string {
  return logText(child.log);
}

/**
 * One Baton process, its output to a log file in `dir` (as the real harness does: the API
 * logs every request, and a file costs the writer less than a pipe to this process).
 */
function startBatonProcess(
  kind: 'api' | 'conductor',
  config: string,
  log: string,
  nodeArgs: string,
): Child {
  const fd = openSync(log, 'a');
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs.split(' ').filter((arg) => arg !== ''),
      '--import',
      'tsx',
      'src/cli/main.ts',
      'baremetal',
      kind,
      '--config-file',
      config,
    ],
    { cwd: ROOT, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  return { process: child, log };
}

async function until(what: string, ready: () => Promise<boolean>, children: Child[]) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const child of children) {
      if (child.process.exitCode !== null) {
        throw new Error(
          `${what}: a process exited with ${child.process.exitCode}:\n${output(child)}`,
        );
      }
    }
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChild(child: Child): Promise<void> {
  const running = child.process;
  if (running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  const timer = setTimeout(() => running.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Baton's `baremetal conductor` (twice) and `baremetal api` as processes on one SQLite file.
 * SERVER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to the API process,
 * CONDUCTOR_NODE_ARGS to the conductors.
 */
export async function startBatonBaremetal(
  databaseUrl?: string,
  options: ServedOptions = {},
): Promise<ServedBaremetal> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-baremetal-'));
  const port = await freePort();
  const count = options.conductors ?? BENCH_CONDUCTORS;
  const config = (host: string, connection = databaseUrl) =>
    ini(
      mergeSections(
        {
          DEFAULT: { host, rpc_transport: 'http', auth_strategy: 'noauth' },
          database: { connection: connection ?? `sqlite:${join(dir, 'baremetal.sqlite')}` },
          api: { host_ip: '127.0.0.1', port: String(port), drain_wait: '0' },
        },
        BENCH_SETTINGS,
        options.config,
      ),
    );
  const children: Child[] = [];
  const startConductorProcess = async (i: number): Promise<Child> => {
    const path = join(dir, `conductor-${i}.conf`);
    const log = join(dir, `conductor-${i}.log`);
    const started = () => {
      try {
        return readFileSync(log, 'utf8').split('serving topic').length - 1;
      } catch {
        return 0;
      }
    };
    const before = started();
    const conductor = startBatonProcess(
      'conductor',
      path,
      log,
      process.env.CONDUCTOR_NODE_ARGS ?? '',
    );
    await until(`conductor ${i}`, async () => started() > before, [conductor]);
    return conductor;
  };
  const stop = async () => {
    // The API first, then the conductors (as an operator would).
    for (const child of children.slice().reverse()) await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 1; i <= count; i++) {
      await writeFile(join(dir, `conductor-${i}.conf`), config(`bench-conductor-${i}`));
      children.push(await startConductorProcess(i));
    }
    const apiConfig = join(dir, 'api.conf');
    await writeFile(apiConfig, config('bench-api', options.apiDatabaseUrl ?? databaseUrl));
    children.push(
      startBatonProcess('api', apiConfig, join(dir, 'api.log'), process.env.SERVER_NODE_ARGS ?? ''),
    );
    const url = `http://127.0.0.1:${port}`;
    await until('the API and the conductors', () => conductorsAlive(url, count), children);
    const api = children[children.length - 1] as Child;
    const conductorPids = children
      .slice(0, -1)
      .flatMap((child) => (child.process.pid === undefined ? [] : [child.process.pid]));
    const killConductor = (index: number) => killChild((children[index] as Child).process);
    const restartConductor = async (index: number) => {
      children[index] = await startConductorProcess(index + 1);
    };
    return tracked({
      name: 'baton',
      url,
      apiPid: api.process.pid,
      conductorPids,
      conductors: () =>
        children.slice(0, count).map((child, i) => ({
          host: `bench-conductor-${i + 1}`,
          pid: child.process.pid,
        })),
      logDir: dir,
      killConductor,
      restartConductor,
      stop,
    });
  } catch (error) {
    await stop();
    throw error;
  }
}

async function conductorsAlive(url: string, count: number): Promise<boolean> {
  const response = await fetch(`${url}/v1/conductors`, {
    headers: { 'X-OpenStack-Ironic-API-Version': '1.49' },
  });
  if (response.status !== 200) return false;
  const body = (await response.json()) as { conductors: { alive: boolean }[] };
  return body.conductors.filter((c) => c.alive).length >= count;
}

/**
 * The services a bench started and has not stopped: a SIGINT or SIGTERM to the bench alone
 * (not to its process group, as Ctrl-C does) stops them before it exits, since they are
 * processes of their own and would go on serving, and so are those of a start under way.
 */
const running = new Set<ServedBaremetal>();
let stopOnSignal = false;

function tracked(served: ServedBaremetal): ServedBaremetal {
  if (!stopOnSignal) {
    stopOnSignal = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        // The services started cleanly stop as they would (their folders go too); what a
        // start under way had already started, and any stop that hangs, is signalled.
        // What was under way fails as its services go (a request cut off): not worth a stack.
        process.on('uncaughtException', () => {});
        process.on('unhandledRejection', () => {});
        console.error(`${signal}: stopping the services started, then exiting`);
        const stops = Promise.allSettled([...running].map((each) => each.stop()));
        const patience = new Promise((resolve) => setTimeout(resolve, 30_000));
        void Promise.race([stops, patience])
          .then(() => stopDescendants(process.pid, 10_000))
          .then(() => process.exit(130));
      });
    }
  }
  running.add(served);
  return {
    ...served,
    stop: async () => {
      running.delete(served);
      await served.stop();
    },
  };
}

/** The real Ironic 21.4.4 (test/support/real-ironic.ts) with the same settings. */
export async function startRealBaremetal(
  databaseUrl?: string,
  options: ServedOptions = {},
): Promise<ServedBaremetal> {
  const real = await startRealIronic({
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    ...(options.apiDatabaseUrl === undefined ? {} : { apiDatabaseUrl: options.apiDatabaseUrl }),
    conductors: options.conductors ?? BENCH_CONDUCTORS,
    ...(options.realConductorConfig === undefined
      ? {}
      : { conductorConfig: options.realConductorConfig }),
    apiWorkers: Number(BENCH_SETTINGS.api.api_workers),
    config: mergeSections({ conductor: { ...BENCH_SETTINGS.conductor } }, options.config),
  });
  return tracked({
    name: 'real 21.4.4',
    url: real.url,
    apiPid: real.api.pid,
    conductorPids: [],
    conductors: () =>
      real.conductors.map((conductor) => ({ host: conductor.host, pid: conductor.process.pid })),
    logDir: real.dir,
    killConductor: (index) =>
      killChild((real.conductors[index] as { process: ChildProcess }).process),
    restartConductor: async (index) => {
      await real.restartConductor(index);
    },
    stop: real.stop,
  });
}
