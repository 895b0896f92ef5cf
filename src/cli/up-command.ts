/**
 * `baton up`: the whole control plane on the embedded defaults, in the foreground. It brings
 * both services' schemas up to date (`baton db upgrade`, in this process), then runs the
 * Placement API, the bare metal API and one bare metal conductor as child processes of the
 * `baton` command itself (`baton placement serve`, `baton baremetal api`, `baton baremetal
 * conductor`: the very processes a supervisor runs in production), all on one SQLite file in
 * the data directory and http RPC unless their config files say otherwise (found as each child
 * would find them, or `--config-file`, and handed to it). It prints where each listens once all
 * three are ready, and every line of a child's stdout and stderr prefixed with its name.
 * SIGTERM or SIGINT stops them all (each drains and leaves the services table) and exits 0;
 * SIGHUP is passed on to the three, each in a process group of its own, so a SIGHUP sent to
 * `baton up`'s whole group reloads each once; a child that ends unasked stops the others and
 * exits 1 naming it. Decisions: docs/operations.md, "baton up".
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_PORT } from '../baremetal/config.ts';
import { defaultDatabaseUrl, parseDatabaseUrl, redactUrl } from '../db/database-url.ts';
import { type ChildSpec, exitSentence, runChildGroup } from '../service/child-processes.ts';
import type { FoundConfig } from '../service/config-files.ts';
import { resolveDataDir } from '../service/data-dir.ts';
import { DataDirLockedError, lockDataDir } from '../service/data-dir-lock.ts';
import { waitForStopSignal } from '../service/stop-signal.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { CONFIG_CHECKED_ENV, type ConfigFlags } from './config-files.ts';
import type { CliIo } from './main.ts';

/** Commander's values. */
export interface UpOptions extends ConfigFlags {
  readonly dataDir?: string;
  readonly placementPort?: string;
  readonly baremetalPort?: string;
  readonly host?: string;
  /** Passed to each child: all three append to the file, each line naming its binary. */
  readonly logFile?: string;
  readonly debug?: boolean;
}

/** What one child reads: its config files (as it would find them), database and data dir. */
export interface ChildConfig {
  readonly found: FoundConfig;
  /** The files' database, if they name one. */
  readonly databaseUrl?: string | undefined;
  /** The files' `[DEFAULT] state_path`, absolute, if set. */
  readonly dataDir?: string | undefined;
}

/** Each child's config, by its binary; none found: an empty search. */
export type UpConfig = Readonly<Record<string, ChildConfig>>;

export const UP_DEFAULTS = {
  host: '127.0.0.1',
  placementPort: 8778,
  baremetalPort: DEFAULT_API_PORT,
} as const;

const BATON_BIN = fileURLToPath(new URL('../../bin/baton.mjs', import.meta.url));

function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) {
    throw usageError(`option '${flag} <port>' argument '${value}' is invalid: a port, 0 to 65535`);
  }
  return parsed;
}

/** A service's database as `baton up` upgrades it and its children use it. */
export interface UpDatabase {
  readonly service: 'placement' | 'baremetal';
  readonly url: string;
  /** The SQLite file of url (empty on a server). */
  readonly path: string;
  readonly dataDir: string;
  /** The config files its processes read (given to `db upgrade` as they are). */
  readonly files: readonly string[];
  readonly found: FoundConfig;
}

/** What `baton up` runs, from its options; pure. */
export interface UpPlan {
  /** The data directory (the first service's, when the config files part them). */
  readonly dataDir: string;
  /** Every data directory in use: each is locked. */
  readonly dataDirs: readonly string[];
  readonly databaseUrl: string;
  /** The SQLite file of databaseUrl. */
  readonly databasePath: string;
  readonly databases: readonly UpDatabase[];
  readonly children: readonly ChildSpec[];
}

const LISTENING = /listening on (https?:\/\/\S+)/;

const NO_CONFIG_FOUND: ChildConfig = {
  found: { files: [], source: 'none', searched: [], names: [] },
};

/** The binary whose config files the service's schema upgrade reads (the servers'). */
const SCHEMA_READER = { placement: 'placement-api', baremetal: 'baremetal-conductor' } as const;

export function planUp(options: UpOptions, bin: string = BATON_BIN, config: UpConfig = {}): UpPlan {
  const host = options.host ?? UP_DEFAULTS.host;
  const placementPort = port(options.placementPort, UP_DEFAULTS.placementPort, '--placement-port');
  const baremetalPort = port(options.baremetalPort, UP_DEFAULTS.baremetalPort, '--baremetal-port');
  const of = (binary: string) => config[binary] ?? NO_CONFIG_FOUND;
  const dataDirOf = (binary: string) =>
    resolveDataDir({ flag: options.dataDir, file: of(binary).dataDir }).path;
  const databases = (['placement', 'baremetal'] as const).map((service): UpDatabase => {
    const reader = of(SCHEMA_READER[service]);
    const dataDir = dataDirOf(SCHEMA_READER[service]);
    const url = reader.databaseUrl ?? defaultDatabaseUrl(dataDir);
    const parsed = parseDatabaseUrl(url);
    return {
      service,
      url,
      // Only a SQLite URL has a file path.
      path: parsed.path ?? '',
      dataDir,
      files: reader.found.files,
      found: reader.found,
    };
  });
  const first = databases[0] as UpDatabase;
  // `up` has warned about the files it hands the children, once for all three.
  const env = { ...process.env, [CONFIG_CHECKED_ENV]: '1' };
  // What every child is given besides its own flags: its files, the logging, its data dir.
  const node = (binary: string, args: string[]) => [
    bin,
    ...args,
    ...of(binary).found.files.flatMap((file) => ['--config-file', file]),
    ...(options.strictConfig === true ? ['--strict-config'] : []),
    ...(options.logFile === undefined ? [] : ['--log-file', options.logFile]),
    ...(options.debug === true ? ['--debug'] : []),
    '--data-dir',
    dataDirOf(binary),
  ];
  return {
    dataDir: first.dataDir,
    dataDirs: [...new Set([...databases.map((d) => d.dataDir), ...CHILDREN.map(dataDirOf)])],
    databaseUrl: first.url,
    databasePath: first.path,
    databases,
    children: [
      {
        name: 'placement-api',
        command: process.execPath,
        env,
        args: node('placement-api', [
          'placement',
          'serve',
          '--host',
          host,
          '--port',
          String(placementPort),
        ]),
        ready: (line) => LISTENING.exec(line)?.[1],
      },
      {
        name: 'baremetal-conductor',
        command: process.execPath,
        env,
        args: node('baremetal-conductor', [
          'baremetal',
          'conductor',
          '--rpc-transport-url',
          `http://${host}:0`,
        ]),
        // "baremetal-conductor HOST serving topic …": the RPC server listens and the row is in.
        ready: (line) => /^baremetal-conductor (\S+) serving topic/.exec(line)?.[1],
      },
      {
        name: 'baremetal-api',
        command: process.execPath,
        env,
        // No balancer in front of `baton up`: a stop need not keep serving for one to notice.
        args: node('baremetal-api', [
          'baremetal',
          'api',
          '--host',
          host,
          '--port',
          String(baremetalPort),
          '--drain-delay',
          '0',
        ]),
        ready: (line) => LISTENING.exec(line)?.[1],
      },
    ],
  };
}

/**
 * The services whose schema is not current in their database (all of them when a SQLite file
 * does not exist yet). Reads only, and loads only the database layer and the migration lists:
 * the full upgrade loads both services whole (~1 s of CPU), which a restart on a current
 * database need not pay.
 */
async function schemasToUpgrade(databases: readonly UpDatabase[]): Promise<UpDatabase[]> {
  const [{ openDatabase }, { checkSchema }, { PLACEMENT_MIGRATIONS }, { BAREMETAL_MIGRATIONS }] =
    await Promise.all([
      import('../db/connect.ts'),
      import('../db/migrations/schema-check.ts'),
      import('../placement/migrations/index.ts'),
      import('../baremetal/migrations/index.ts'),
    ]);
  const sets = { placement: PLACEMENT_MIGRATIONS, baremetal: BAREMETAL_MIGRATIONS };
  const behind: UpDatabase[] = [];
  for (const target of databases) {
    if (target.path !== '' && !existsSync(target.path)) {
      behind.push(target);
      continue;
    }
    let database: Awaited<ReturnType<typeof openDatabase>>;
    try {
      database = await openDatabase(target.url, { mustExist: true });
    } catch (error) {
      // Not a SQLite database, unreadable, unreachable: one line, as every database command says it.
      throw new CliExit((error as Error).message, EXIT.failure);
    }
    try {
      const report = await checkSchema(database, sets[target.service]);
      if (report.state !== 'current' && report.state !== 'ahead') behind.push(target);
    } finally {
      await database.close();
    }
  }
  return behind;
}

/** The schemas not current, as `baton db upgrade --service NAME` brings them, with the same files. */
async function upgradeSchemas(plan: UpPlan, io: CliIo): Promise<void> {
  const behind = await schemasToUpgrade(plan.databases);
  if (behind.length === 0) {
    const urls = [...new Set(plan.databases.map((d) => redactUrl(d.url)))];
    io.out(`baton up: both schemas are current in ${urls.join(' and ')}`);
    return;
  }
  const { dbUpgrade } = await import('./db-upgrade-command.ts');
  for (const target of behind) {
    const status = await dbUpgrade(
      {
        service: target.service,
        dataDir: target.dataDir,
        // The servers' files exactly, found once: the same database, no second search.
        foundConfig: target.found,
        notice: (line) => io.out(`baton up: ${line}`),
      },
      (line) => io.out(`baton up: ${line}`),
    );
    if (status !== EXIT.ok) {
      throw new CliExit(`db upgrade --service ${target.service} failed`, status);
    }
  }
}

/** The three children, by binary, as `planUp` lists them. */
const CHILDREN = ['placement-api', 'baremetal-conductor', 'baremetal-api'] as const;

/** What each child reads: the files it would find itself (or those given), checked once here. */
async function childConfigs(options: UpOptions, io: CliIo): Promise<UpConfig> {
  const [{ commandConfigFiles }, { SERVICE_CONFIG_PROJECTS }] = await Promise.all([
    import('./config-files.ts'),
    import('./service-catalog.ts'),
  ]);
  const warned = new Set<string>();
  const config: Record<string, ChildConfig> = {};
  for (const binary of CHILDREN) {
    const service = binary.startsWith('placement') ? 'placement' : 'baremetal';
    const project = SERVICE_CONFIG_PROJECTS[service];
    if (project === undefined) continue;
    const found = await commandConfigFiles(project, binary, options, (message) => {
      // One warning per setting, however many children read the file.
      if (warned.has(message)) return;
      warned.add(message);
      io.err(`baton: warning: ${message}\n`);
    });
    config[binary] = { found, ...(await filesSay(service, found.files)) };
  }
  return config;
}

/** The database and data directory the files name, read with the service's own option list. */
async function filesSay(
  service: 'placement' | 'baremetal',
  files: readonly string[],
): Promise<{ databaseUrl?: string; dataDir?: string }> {
  if (files.length === 0) return {};
  try {
    if (service === 'placement') {
      const { loadConfigFiles } = await import('../placement/config-file.ts');
      const file = await loadConfigFiles(files);
      return { databaseUrl: file.settings.databaseUrl, dataDir: file.dataDir };
    }
    const { loadBaremetalConfigFiles } = await import('../baremetal/config-file.ts');
    const file = await loadBaremetalConfigFiles(files);
    return { databaseUrl: file.databaseUrl, dataDir: file.dataDir };
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

export async function up(
  options: UpOptions,
  io: CliIo,
  stopped: Promise<string> = waitForStopSignal(),
): Promise<number> {
  const plan = planUp(options, BATON_BIN, await childConfigs(options, io));
  // One `baton up` per data directory: a second one exits naming the first, changing nothing.
  const unlocks: (() => Promise<void>)[] = [];
  try {
    for (const dir of plan.dataDirs) {
      await mkdir(dir, { recursive: true });
      try {
        unlocks.push(await lockDataDir(dir));
      } catch (error) {
        if (error instanceof DataDirLockedError) throw new CliExit(error.message, EXIT.failure);
        throw error;
      }
    }
    return await runUp(plan, io, stopped);
  } finally {
    for (const unlock of unlocks.reverse()) await unlock();
  }
}

/** `placement-api       | ` before each line a child prints. */
function prefixer(): (name: string, line: string) => string {
  const width = Math.max(...CHILDREN.map((name) => name.length));
  return (name, line) => `${name.padEnd(width)} | ${line}`;
}

async function runUp(plan: UpPlan, io: CliIo, stopped: Promise<string>): Promise<number> {
  await upgradeSchemas(plan, io);
  // performance.now() counts from this process's start: the schemas' time is in the figure.
  const upgraded = performance.now();
  const prefix = prefixer();
  const outcome = await runChildGroup(
    plan.children,
    {
      line: (name, line) => io.out(prefix(name, line)),
      errPrefix: (name) => prefix(name, ''),
      ready: (announced) => {
        const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        const at = new Map(announced.map(({ name, value }) => [name, value]));
        io.out(
          `baton up: ready ${seconds(performance.now())} after start (schemas checked in ${seconds(upgraded)})`,
        );
        io.out(`  Placement         ${at.get('placement-api')}`);
        io.out(`  Bare metal API    ${at.get('baremetal-api')}`);
        io.out(`  Conductor         ${at.get('baremetal-conductor')} (RPC over http)`);
        const [placement, baremetal] = plan.databases;
        if (placement?.url === baremetal?.url) {
          io.out(`  Database          ${redactUrl(plan.databaseUrl)}`);
        } else {
          io.out(`  Databases         placement ${redactUrl(placement?.url ?? '')}`);
          io.out(`                    baremetal ${redactUrl(baremetal?.url ?? '')}`);
        }
        const files = [...new Set(plan.databases.flatMap((d) => d.files))];
        io.out(`  Config files      ${files.length === 0 ? 'none' : files.join(', ')}`);
        io.out(`  dashboard: ${at.get('baremetal-api')}/dashboard`);
        io.out('baton up: Ctrl-C (or SIGTERM) stops all three');
      },
    },
    // SIGHUP reloads each process's config (as systemctl reload would), rather than ending
    // `up`; each child leads a process group of its own, so a SIGHUP to `up`'s group reaches
    // each child once, through `up`.
    { stopped, forward: ['SIGHUP'], ownGroups: true },
  );
  if (outcome.kind === 'died') {
    throw new CliExit(`${exitSentence(outcome.first)}; the others were stopped`, EXIT.failure);
  }
  const unclean = outcome.exits.filter((exit) => exit.code !== 0);
  if (unclean.length > 0) {
    throw new CliExit(
      `stopping (${outcome.signal}): ${unclean.map(exitSentence).join(', ')}`,
      EXIT.failure,
    );
  }
  io.out(`baton up: stopped (${outcome.signal})`);
  return EXIT.ok;
}
