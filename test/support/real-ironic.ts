/**
 * Starts the real OpenStack Ironic 21.4.4 (Debian's ironic-api and ironic-conductor) standalone,
 * for tests and benchmarks that compare Baton's bare metal service with it in the same run.
 * Nothing of it is part of Baton: it is installed on the machine, outside the repository, with
 *
 *   apt-get install ironic-api ironic-conductor python3-ironicclient
 *
 * The setup is the one docs/baremetal.md describes ("Comparing with the real Ironic"): noauth,
 * JSON-RPC between the tiers, the `fake-hardware` hardware type with the implementations
 * Baton enables by default (STANDALONE_ENABLED_INTERFACES: every kind `fake`, network and
 * storage `noop`, console `no-console`, the no-* variants beside the fake ones), no DHCP, a SQLite file in a temporary directory unless a scratch
 * PostgreSQL or MariaDB database is given. Everything listens on loopback: the API on a free
 * port, conductor N (from 1) on 127.0.0.N with the JSON-RPC port they share, because the
 * real API reaches a conductor at `<its host name>:[json_rpc]port`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { STANDALONE_ENABLED_INTERFACES } from '../../src/baremetal/drivers/enabled-interfaces.ts';

const run = promisify(execFile);

export const REAL_IRONIC_INSTALL =
  'apt-get install ironic-api ironic-conductor python3-ironicclient';
const PACKAGE_DIR = '/usr/lib/python3/dist-packages/ironic';
export const API = '/usr/bin/ironic-api';
const CONDUCTOR = '/usr/bin/ironic-conductor';
export const DBSYNC = '/usr/bin/ironic-dbsync';
export const BAREMETAL_CLI = '/usr/bin/baremetal';

/**
 * How long its processes may take to serve: a few seconds on a quiet machine; a CI run
 * with the machine loaded far past its two cores (load 18) took more than 60.
 */
const START_TIMEOUT_MS = 120_000;

export interface RealIronicOptions {
  /** A scratch PostgreSQL or MariaDB database (our URL form); a SQLite file when absent. */
  readonly databaseUrl?: string;
  /** The API process's database URL when not `databaseUrl`'s (the same database, elsewhere). */
  readonly apiDatabaseUrl?: string;
  /** Number of conductors (each its own process and host name), 1 by default. */
  readonly conductors?: number;
  /** `[DEFAULT] pin_release_version`, e.g. `zed`. */
  readonly pinReleaseVersion?: string;
  /** `[conductor] automated_clean` (the real default, true, when absent). */
  readonly automatedClean?: boolean;
  /** `[api] api_workers`, 1 by default. */
  readonly apiWorkers?: number;
  /** Options of conductor `index` (from 0) alone, over `config`. */
  readonly conductorConfig?: (index: number) => RealIronicOptions['config'];
  /** More options, by section: `{conductor: {heartbeat_timeout: '10'}}`. */
  readonly config?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Headers the readiness check sends (a token when `auth_strategy = keystone`). */
  readonly readyHeaders?: Readonly<Record<string, string>>;
  /** How long to wait for the API and every conductor, 120 s by default. */
  readonly startTimeoutMs?: number;
}

export interface RealIronicConductor {
  readonly host: string;
  readonly process: ChildProcess;
  readonly log: string;
}

export interface RealIronic {
  /** The API's root, `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly dir: string;
  /** The API's launcher process (its worker processes are its children). */
  readonly api: ChildProcess;
  readonly conductors: readonly RealIronicConductor[];
  /**
   * Runs the `baremetal` client against this service; never throws on a non-zero exit, nor
   * when the client is killed at `timeoutMs` (code 124, as timeout(1) says).
   */
  readonly baremetal: (args: readonly string[], timeoutMs?: number) => Promise<CliResult>;
  /** The last lines of the API's and every conductor's log, to explain a failure. */
  readonly logTails: (lines?: number) => string;
  /**
   * Starts conductor `index` (from 0) again with its configuration, after it stopped or was
   * killed, and waits until the new process has started ("Successfully started conductor" in
   * its log, written once it has failed the nodes it cannot resume); the new process is then
   * `conductors[index].process`, and `stop` stops it too.
   */
  readonly restartConductor: (index: number) => Promise<RealIronicConductor>;
  /** Stops every process (SIGTERM, SIGKILL after 20 s) and removes the directory. */
  readonly stop: () => Promise<void>;
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Why the real service cannot be started here, or undefined when it can. */
export function realIronicMissing(): string | undefined {
  for (const path of [PACKAGE_DIR, API, CONDUCTOR, DBSYNC, BAREMETAL_CLI]) {
    if (!existsSync(path)) return `${path} is missing (install: ${REAL_IRONIC_INSTALL})`;
  }
  return undefined;
}

/** SQLAlchemy's spelling of one of our database URLs. */
function sqlalchemyUrl(dbUrl: string): string {
  const url = new URL(dbUrl);
  const auth = (user: string) =>
    `${url.username || user}${url.password ? `:${url.password}` : ''}@${url.hostname}`;
  if (url.protocol === 'postgresql:' || url.protocol === 'postgres:') {
    return `postgresql+psycopg2://${auth('postgres')}:${url.port || 5432}${url.pathname}`;
  }
  if (url.protocol === 'mysql:') {
    return `mysql+pymysql://${auth('root')}:${url.port || 3306}${url.pathname}?charset=utf8mb4`;
  }
  throw new Error(`the real Ironic harness takes a PostgreSQL or MySQL URL, not ${url.protocol}`);
}

/** A port nothing listens on at `host` right now. */
async function freePort(host: string): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** A port free on every host given (the conductors share the JSON-RPC port). */
async function portFreeOn(hosts: readonly string[]): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort(hosts[0] as string);
    const others = await Promise.all(hosts.slice(1).map((host) => portIsFree(host, port)));
    if (others.every(Boolean)) return port;
  }
  throw new Error(`no port free on all of ${hosts.join(', ')}`);
}

async function portIsFree(host: string, port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function iniText(sections: Record<string, Record<string, string>>): string {
  const lines: string[] = [];
  for (const [section, options] of Object.entries(sections)) {
    lines.push(`[${section}]`);
    for (const [key, value] of Object.entries(options)) lines.push(`${key} = ${value}`);
    lines.push('');
  }
  return lines.join('\n');
}

function merge(
  base: Record<string, Record<string, string>>,
  extra: RealIronicOptions['config'] = {},
): Record<string, Record<string, string>> {
  const merged = { ...base };
  for (const [section, options] of Object.entries(extra)) {
    merged[section] = { ...(merged[section] ?? {}), ...options };
  }
  return merged;
}

// Python processes must not pick up a pyenv or virtualenv of the caller, nor OS_* client
// settings that would send the CLI elsewhere.
/** The environment for the real Ironic's commands (no virtualenv or OpenStack credentials). */
export function pythonEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('OS_') || key === 'PYTHONPATH' || key === 'PYTHONHOME') continue;
    if (key === 'VIRTUAL_ENV') continue;
    env[key] = value;
  }
  return env;
}

/** What the real conductor logs once it has started (init_host's last step). */
const STARTED_LINE = 'Successfully started conductor with hostname';

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function tail(path: string, lines = 30): string {
  const text = readLog(path);
  return text === '' ? '(no log)' : text.split('\n').slice(-lines).join('\n');
}

/** The last lines of the API's log and of each of `conductors` conductors' logs in `dir`. */
function logTailsIn(dir: string, conductors: number, lines: number): string {
  const names = [
    'api.log',
    ...Array.from({ length: conductors }, (_, i) => `conductor-${i + 1}.log`),
  ];
  return names.map((name) => `--- ${name}\n${tail(join(dir, name), lines)}`).join('\n');
}

async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Writes the configuration, creates the schema, starts the conductors and the API. */
export async function startRealIronic(options: RealIronicOptions = {}): Promise<RealIronic> {
  const missing = realIronicMissing();
  if (missing) throw new Error(`cannot start the real Ironic: ${missing}`);
  const dir = await mkdtemp(join(tmpdir(), 'real-ironic-'));
  const count = options.conductors ?? 1;
  const hosts = Array.from({ length: count }, (_, i) => `127.0.0.${i + 1}`);
  const apiPort = await freePort('127.0.0.1');
  const rpcPort = await portFreeOn(hosts);
  const connection = options.databaseUrl
    ? sqlalchemyUrl(options.databaseUrl)
    : `sqlite:///${join(dir, 'ironic.sqlite')}`;
  const enabled = Object.fromEntries(
    Object.entries(STANDALONE_ENABLED_INTERFACES).map(([kind, names]) => [
      `enabled_${kind}_interfaces`,
      names.join(','),
    ]),
  );
  const base = (host: string) =>
    merge(
      {
        DEFAULT: {
          auth_strategy: 'noauth',
          rpc_transport: 'json-rpc',
          host,
          enabled_hardware_types: 'fake-hardware',
          ...enabled,
          ...(options.pinReleaseVersion ? { pin_release_version: options.pinReleaseVersion } : {}),
        },
        api: {
          host_ip: '127.0.0.1',
          port: String(apiPort),
          api_workers: String(options.apiWorkers ?? 1),
        },
        json_rpc: { auth_strategy: 'noauth', host_ip: host, port: String(rpcPort) },
        database: { connection },
        dhcp: { dhcp_provider: 'none' },
        conductor: {
          heartbeat_interval: '2',
          ...(options.automatedClean === undefined
            ? {}
            : { automated_clean: String(options.automatedClean) }),
        },
      },
      options.config,
    );
  const configs = await Promise.all(
    hosts.map(async (host, i) => {
      const path = join(dir, `ironic-${i + 1}.conf`);
      await writeFile(path, iniText(merge(base(host), options.conductorConfig?.(i))));
      return path;
    }),
  );
  const env = pythonEnv();
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => stopProcess(child, 20_000)));
    await rm(dir, { recursive: true, force: true });
  };
  const start = (binary: string, config: string, log: string) => {
    const fd = openSync(log, 'a');
    const child = spawn(binary, ['--config-file', config], { env, stdio: ['ignore', fd, fd] });
    children.push(child);
    return child;
  };
  try {
    await run(DBSYNC, ['--config-file', configs[0] as string, 'create_schema'], {
      env,
      timeout: 60_000,
    });
    const apiLog = join(dir, 'api.log');
    let apiConfig = configs[0] as string;
    if (options.apiDatabaseUrl !== undefined) {
      apiConfig = join(dir, 'ironic-api.conf');
      const sections = base(hosts[0] as string);
      sections.database = {
        ...sections.database,
        connection: sqlalchemyUrl(options.apiDatabaseUrl),
      };
      await writeFile(apiConfig, iniText(sections));
    }
    const api = start(API, apiConfig, apiLog);
    const url = `http://127.0.0.1:${apiPort}`;
    const deadline = Date.now() + (options.startTimeoutMs ?? START_TIMEOUT_MS);
    const conductors: RealIronicConductor[] = [];
    // One at a time: conductors registering together lock a SQLite database, and the real
    // conductor gives up on "database is locked" at start.
    for (const [i, host] of hosts.entries()) {
      const log = join(dir, `conductor-${i + 1}.log`);
      conductors.push({ host, log, process: start(CONDUCTOR, configs[i] as string, log) });
      await waitUntilReady(url, hosts.slice(0, i + 1), deadline, options.readyHeaders, () => {
        for (const [child, childLog] of [
          [api, apiLog],
          ...conductors.map((c) => [c.process, c.log] as const),
        ] as const) {
          if (child.exitCode !== null) {
            return `${childLog} exited with ${child.exitCode}:\n${tail(childLog)}`;
          }
        }
        return undefined;
      });
    }
    const baremetal = (args: readonly string[], timeoutMs = 60_000) =>
      runBaremetal(url, args, env, timeoutMs);
    const logTails = (lines = 30) => logTailsIn(dir, hosts.length, lines);
    const restartConductor = async (index: number) => {
      const { host, log } = conductors[index] as RealIronicConductor;
      const started = () => readLog(log).split(STARTED_LINE).length - 1;
      const before = started();
      const process = start(CONDUCTOR, configs[index] as string, log);
      conductors[index] = { host, log, process };
      const deadline = Date.now() + (options.startTimeoutMs ?? START_TIMEOUT_MS);
      while (started() === before) {
        if (process.exitCode !== null) {
          throw new Error(`conductor ${host} exited with ${process.exitCode}:\n${tail(log)}`);
        }
        if (Date.now() > deadline) throw new Error(`conductor ${host} did not start again`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return conductors[index] as RealIronicConductor;
    };
    return { url, dir, api, conductors, baremetal, logTails, restartConductor, stop };
  } catch (error) {
    const logs = logTailsIn(dir, hosts.length, 15);
    await stop();
    throw new Error(`the real Ironic did not start: ${(error as Error).message}\n${logs}`);
  }
}

/** Waits for `/v1` to answer and for every conductor to be registered and alive. */
async function waitUntilReady(
  url: string,
  hosts: readonly string[],
  deadline: number,
  headers: Readonly<Record<string, string>> | undefined,
  died: () => string | undefined,
): Promise<void> {
  let last = 'no answer yet';
  for (;;) {
    const death = died();
    if (death) throw new Error(death);
    try {
      const response = await fetch(`${url}/v1/conductors`, {
        headers: { 'X-OpenStack-Ironic-API-Version': '1.49', ...headers },
      });
      const body = (await response.json()) as {
        conductors?: { hostname: string; alive: boolean }[];
      };
      const alive = new Set((body.conductors ?? []).filter((c) => c.alive).map((c) => c.hostname));
      if (hosts.every((host) => alive.has(host))) return;
      last = `conductors alive: ${[...alive].join(', ') || 'none'}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`not ready in time (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs the real `baremetal` client against `url` (any Ironic-compatible endpoint). */
/** The client's command line against `url` without authentication (noauth), less the program. */
export function baremetalArgv(url: string, args: readonly string[]): string[] {
  return ['--os-auth-type', 'none', '--os-endpoint', url, ...args];
}

export async function runBaremetal(
  url: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(BAREMETAL_CLI, baremetalArgv(url, args), {
      env,
      timeout: timeoutMs,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as {
      code?: number | string | null;
      killed?: boolean;
      stdout?: string;
      stderr?: string;
    };
    if (failed.killed) {
      const stderr = `${failed.stderr ?? ''}\n(killed after ${timeoutMs} ms)`;
      return { code: 124, stdout: failed.stdout ?? '', stderr };
    }
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
