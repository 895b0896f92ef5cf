/**
 * `baton up`: the whole control plane on the embedded defaults, in the foreground. It brings
 * both services' schemas up to date (`baton db upgrade`, in this process), then runs the
 * Placement API, the bare metal API and one bare metal conductor as child processes of the
 * `baton` command itself (`baton placement serve`, `baton baremetal api`, `baton baremetal
 * conductor`: the very processes a supervisor runs in production), all on one SQLite file in
 * the data directory and http RPC. It prints where each listens once all three are ready.
 * SIGTERM or SIGINT stops them all (each drains and leaves the services table) and exits 0;
 * SIGHUP is passed on to the three; a child that ends unasked stops the others and exits 1
 * naming it. Decisions: docs/operations.md, "baton up".
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_PORT } from '../baremetal/config.ts';
import { defaultDatabaseUrl, parseDatabaseUrl } from '../db/database-url.ts';
import { type ChildSpec, exitSentence, runChildGroup } from '../service/child-processes.ts';
import { resolveDataDir } from '../service/data-dir.ts';
import { DataDirLockedError, lockDataDir } from '../service/data-dir-lock.ts';
import { waitForStopSignal } from '../service/stop-signal.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import type { CliIo } from './main.ts';

/** Commander's values. */
export interface UpOptions {
  readonly dataDir?: string;
  readonly placementPort?: string;
  readonly baremetalPort?: string;
  readonly host?: string;
}

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

/** What `baton up` runs, from its options; pure. */
export interface UpPlan {
  readonly dataDir: string;
  readonly databaseUrl: string;
  /** The SQLite file of databaseUrl. */
  readonly databasePath: string;
  readonly children: readonly ChildSpec[];
}

const LISTENING = /listening on (https?:\/\/\S+)/;

export function planUp(options: UpOptions, bin: string = BATON_BIN): UpPlan {
  const host = options.host ?? UP_DEFAULTS.host;
  const placementPort = port(options.placementPort, UP_DEFAULTS.placementPort, '--placement-port');
  const baremetalPort = port(options.baremetalPort, UP_DEFAULTS.baremetalPort, '--baremetal-port');
  const dataDir = resolveDataDir({ flag: options.dataDir }).path;
  const databaseUrl = defaultDatabaseUrl(dataDir);
  const common = ['--data-dir', dataDir];
  const node = (args: string[]) => [bin, ...args, ...common];
  return {
    dataDir,
    databaseUrl,
    databasePath: parseDatabaseUrl(databaseUrl).path ?? '',
    children: [
      {
        name: 'placement-api',
        command: process.execPath,
        args: node(['placement', 'serve', '--host', host, '--port', String(placementPort)]),
        ready: (line) => LISTENING.exec(line)?.[1],
      },
      {
        name: 'baremetal-conductor',
        command: process.execPath,
        args: node(['baremetal', 'conductor', '--rpc-transport-url', `http://${host}:0`]),
        // "baremetal-conductor HOST serving topic …": the RPC server listens and the row is in.
        ready: (line) => /^baremetal-conductor (\S+) serving topic/.exec(line)?.[1],
      },
      {
        name: 'baremetal-api',
        command: process.execPath,
        // No balancer in front of `baton up`: a stop need not keep serving for one to notice.
        args: node([
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
 * The services whose schema is not current in the database (all of them when it does not
 * exist yet). Reads only, and loads only the database layer and the migration lists: the
 * full upgrade loads both services whole (~1 s of CPU), which a restart on a current
 * database need not pay.
 */
async function schemasToUpgrade(databaseUrl: string, path: string): Promise<string[]> {
  const all = ['placement', 'baremetal'];
  if (!existsSync(path)) return all;
  const [{ openDatabase }, { checkSchema }, { PLACEMENT_MIGRATIONS }, { BAREMETAL_MIGRATIONS }] =
    await Promise.all([
      import('../db/connect.ts'),
      import('../db/migrations/schema-check.ts'),
      import('../placement/migrations/index.ts'),
      import('../baremetal/migrations/index.ts'),
    ]);
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(databaseUrl, { mustExist: true });
  } catch (error) {
    // Not a SQLite database, unreadable: one line, as every database command says it.
    throw new CliExit((error as Error).message, EXIT.failure);
  }
  try {
    const sets = { placement: PLACEMENT_MIGRATIONS, baremetal: BAREMETAL_MIGRATIONS };
    const behind: string[] = [];
    for (const service of all) {
      const report = await checkSchema(database, sets[service as keyof typeof sets]);
      if (report.state !== 'current' && report.state !== 'ahead') behind.push(service);
    }
    return behind;
  } finally {
    await database.close();
  }
}

/** The schemas not current, as `baton db upgrade --service NAME --data-dir D` brings them. */
async function upgradeSchemas(plan: UpPlan, out: (line: string) => void): Promise<void> {
  const services = await schemasToUpgrade(plan.databaseUrl, plan.databasePath);
  if (services.length === 0) {
    out(`baton up: both schemas are current in ${plan.databaseUrl}`);
    return;
  }
  const { dbUpgrade } = await import('./db-upgrade-command.ts');
  const dataDir = plan.dataDir;
  for (const service of services) {
    const status = await dbUpgrade({ service, dataDir }, (line) => out(`baton up: ${line}`));
    if (status !== EXIT.ok) {
      throw new CliExit(`db upgrade --service ${service} failed`, status);
    }
  }
}

export async function up(
  options: UpOptions,
  io: CliIo,
  stopped: Promise<string> = waitForStopSignal(),
): Promise<number> {
  const plan = planUp(options);
  // One `baton up` per data directory: a second one exits naming the first, changing nothing.
  await mkdir(plan.dataDir, { recursive: true });
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(plan.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new CliExit(error.message, EXIT.failure);
    throw error;
  }
  try {
    return await runUp(plan, io, stopped);
  } finally {
    await unlock();
  }
}

async function runUp(plan: UpPlan, io: CliIo, stopped: Promise<string>): Promise<number> {
  await upgradeSchemas(plan, io.out);
  // performance.now() counts from this process's start: the schemas' time is in the figure.
  const upgraded = performance.now();
  const outcome = await runChildGroup(
    plan.children,
    {
      line: (_name, line) => io.out(line),
      ready: (announced) => {
        const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        const at = new Map(announced.map(({ name, value }) => [name, value]));
        io.out(
          `baton up: ready ${seconds(performance.now())} after start (schemas checked in ${seconds(upgraded)})`,
        );
        io.out(`  Placement         ${at.get('placement-api')}`);
        io.out(`  Bare metal API    ${at.get('baremetal-api')}`);
        io.out(`  Conductor         ${at.get('baremetal-conductor')} (RPC over http)`);
        io.out(`  Database          ${plan.databaseUrl}`);
        io.out(`  dashboard: ${at.get('baremetal-api')}/dashboard`);
        io.out('baton up: Ctrl-C (or SIGTERM) stops all three');
      },
    },
    // SIGHUP reloads each process's config (as systemctl reload would), rather than ending `up`.
    { stopped, forward: ['SIGHUP'] },
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
