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
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_PORT } from '../baremetal/config.ts';
import { defaultDatabaseUrl } from '../db/database-url.ts';
import { type ChildSpec, exitSentence, runChildGroup } from '../service/child-processes.ts';
import { resolveDataDir } from '../service/data-dir.ts';
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
  readonly children: readonly ChildSpec[];
}

const LISTENING = /listening on (https?:\/\/\S+)/;

export function planUp(options: UpOptions, bin: string = BATON_BIN): UpPlan {
  const host = options.host ?? UP_DEFAULTS.host;
  const placementPort = port(options.placementPort, UP_DEFAULTS.placementPort, '--placement-port');
  const baremetalPort = port(options.baremetalPort, UP_DEFAULTS.baremetalPort, '--baremetal-port');
  const dataDir = resolveDataDir({ flag: options.dataDir }).path;
  const common = ['--data-dir', dataDir];
  const node = (args: string[]) => [bin, ...args, ...common];
  return {
    dataDir,
    databaseUrl: defaultDatabaseUrl(dataDir),
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
          '--drain-wait',
          '0',
        ]),
        ready: (line) => LISTENING.exec(line)?.[1],
      },
    ],
  };
}

/** Both services' schemas, as `baton db upgrade --service NAME --data-dir D` brings them. */
async function upgradeSchemas(dataDir: string, out: (line: string) => void): Promise<void> {
  const { dbUpgrade } = await import('./db-upgrade-command.ts');
  for (const service of ['placement', 'baremetal']) {
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
  await upgradeSchemas(plan.dataDir, io.out);
  const started = performance.now();
  const outcome = await runChildGroup(
    plan.children,
    {
      line: (_name, line) => io.out(line),
      ready: (announced) => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        const at = new Map(announced.map(({ name, value }) => [name, value]));
        io.out(`baton up: ready in ${seconds} s`);
        io.out(`  Placement         ${at.get('placement-api')}`);
        io.out(`  Bare metal API    ${at.get('baremetal-api')}`);
        io.out(`  Conductor         ${at.get('baremetal-conductor')} (RPC over http)`);
        io.out(`  Database          ${plan.databaseUrl}`);
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
