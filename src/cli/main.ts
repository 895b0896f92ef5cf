/**
 * The `baton` command. Every database command takes `--service NAME` and
 * `--db URL` (default: the config file's, else the embedded SQLite file in the
 * data directory). A server's flags are made from its service's config options.
 * Errors end with one line, `baton: error: …`, on stderr and a non-zero
 * status; bad input exits 64.
 */
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Help, Option } from 'commander';
import { BAREMETAL_API_CONFIG, BAREMETAL_CONFIG } from '../baremetal/config-options.ts';
import { DEFAULT_BATCH_SIZE } from '../db/online-migrations/counts.ts';
import { DEFAULT_LIVE_WITHIN_SECONDS } from '../db/services/liveness.ts';
import { PLACEMENT_CONFIG } from '../placement/config-file.ts';
import { LINE_PREFIX_ENV } from '../service/child-processes.ts';
import { SYSCONFDIR_ENV } from '../service/config-files.ts';
import { DATA_DIR_ENV, defaultDataDir } from '../service/data-dir.ts';
import { readBuildInfo, versionLine } from './build-info.ts';
import { CliExit, EXIT } from './cli-error.ts';
import { addConfigFlags } from './config-flags.ts';
import { defaultDbHelp, defaultDbUrl } from './data-dir.ts';
import type { ProgressEnv } from './progress-env.ts';
import { SERVICE_NAMES, SERVICE_RELEASES } from './service-catalog.ts';

// Each command's module is imported when the command runs: the database drivers, Fastify and
// the services' code cost ~0.5 s of CPU to load, which `--help` and `--version` never pay.

/** Where a run writes; tests pass their own. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
  /** How long-running commands show progress (default: bars on a terminal, else summary lines). */
  readonly progress?: ProgressEnv;
}

// Under `baton up`, the command's own stderr lines (warnings, errors) name the process that
// wrote them, as up's prefix does for its stdout lines (src/service/child-processes.ts).
const LINE_PREFIX = process.env[LINE_PREFIX_ENV] ?? '';

const processIo: CliIo = {
  out: (line) => {
    process.stdout.write(`${line}\n`);
  },
  err: (text) => {
    process.stderr.write(LINE_PREFIX === '' ? text : text.replace(/^(?=.)/gm, LINE_PREFIX));
  },
};

/** Where `/etc` is for the config file search (BATON_SYSCONFDIR moves it). */
const SYSCONFDIR = process.env[SYSCONFDIR_ENV] || '/etc';

/** `--version` seen: runCli prints the version line instead of running anything. */
class VersionRequested extends Error {}

function dataDirOption(): Option {
  return new Option(
    '--data-dir <dir>',
    `where the embedded SQLite database is (default: the config file's [DEFAULT] state_path, else ${defaultDataDir().path})`,
  ).env(DATA_DIR_ENV);
}

function serviceOption(): Option {
  return new Option('--service <name>', 'the service whose database it is')
    .choices(SERVICE_NAMES)
    .makeOptionMandatory();
}

function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * `--config-file`, `--config-dir` and `--strict-config`, as every command reading a service's
 * config file takes them; `what` says what the files give the command.
 */
export function configFileOptions(command: Command, what: string, project?: string): Command {
  const p = project ?? 'PROJECT';
  const where = `~/.${p}/${p}.conf, ~/${p}.conf, ${SYSCONFDIR}/${p}/${p}.conf, ${SYSCONFDIR}/${p}.conf${project === undefined ? ' (PROJECT: ironic for baremetal, placement for placement)' : ''}`;
  return command
    .addOption(
      new Option(
        '--config-file <path>',
        `a config file (repeatable; a later file wins): ${what} (default: the first that exists of ${where}, where oslo.config looks for the real service's)`,
      ).argParser(collect),
    )
    .addOption(
      new Option(
        '--config-dir <dir>',
        `read every *.conf in this directory after the files, sorted (repeatable) (default: ${p}.conf.d in the same places, if any)`,
      ).argParser(collect),
    )
    .option(
      '--strict-config',
      'refuse (exit 64) a config file with a section or option no service knows (default: a warning each)',
    );
}

function databaseOptions(command: Command): Command {
  return configFileOptions(
    command
      .addOption(serviceOption())
      .option(
        '--db <url>',
        `database URL: sqlite:<path>, sqlite:////<absolute path>, postgresql[+driver]://…, mysql[+driver]://… (default: the config file's, else ${defaultDbHelp()})`,
      )
      .addOption(dataDirOption()),
    "the service's database when --db is absent, and its settings",
  );
}

/** The pin values of each service, for `--help`. */
function pinValues(): string {
  return Object.entries(SERVICE_RELEASES)
    .map(([service, releases]) => `${service}: ${releases.join(', ')}`)
    .join('; ');
}

/**
 * How every command's `--help` lays out its options. Commander pads every option to the longest
 * one and stops wrapping the descriptions when that leaves them fewer than 40 columns, so the
 * servers' long config flags (`--keystone-service-token-roles-required`) made `baremetal api
 * --help` print each description on one line of hundreds of columns. Here the option column is
 * at most as wide as still leaves 40 for the descriptions; a longer option gets a line of its
 * own, its description below it in the column, wrapped like the others.
 */
const HELP_LAYOUT = {
  padWidth(this: Help, command: Command, helper: Help): number {
    const widest = Help.prototype.padWidth.call(this, command, helper);
    const width = helper.helpWidth ?? 80;
    return Math.min(widest, Math.max(10, width - 4 - helper.minWidthToWrap));
  },
  formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help) {
    if (description === '' || helper.displayWidth(term) <= termWidth) {
      return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
    }
    const column = 2 + termWidth + 2;
    const wrapped = helper.boxWrap(description, (helper.helpWidth ?? 80) - column);
    return `  ${term}\n${' '.repeat(column)}${wrapped.replace(/\n/g, `\n${' '.repeat(column)}`)}`;
  },
};

export function buildProgram(setStatus: (status: number) => void, io: CliIo = processIo): Command {
  const out = io.out;
  // Which config files and database a command works on, and warnings about the files: stderr.
  const noticed = <T extends object>(options: T) => ({
    ...options,
    notice: (line: string) => io.err(`${line}\n`),
  });
  const program = new Command('baton')
    .description('Rolling upgrades for services sharing one SQL database')
    .exitOverride()
    .configureOutput({ writeErr: io.err, writeOut: (text) => io.out(text.trimEnd()) })
    .configureHelp(HELP_LAYOUT)
    .showHelpAfterError(false)
    .option('-V, --version', "print the release, the services' releases and the commit")
    .on('option:version', () => {
      throw new VersionRequested();
    });

  const upCommand = program
    .command('up')
    .description(
      'run the whole control plane on embedded defaults: Placement, the bare metal API and a conductor, until SIGTERM/SIGINT',
    )
    .addOption(dataDirOption())
    .addOption(
      new Option('--placement-port <port>', 'where Placement listens (default: 8778)').env(
        'BATON_PLACEMENT_PORT',
      ),
    )
    .addOption(
      new Option('--baremetal-port <port>', 'where the bare metal API listens (default: 6385)').env(
        'BATON_BAREMETAL_PORT',
      ),
    )
    .option(
      '--host <address>',
      'the address both APIs and the conductor listen on; the APIs check no token, so loopback only (default: 127.0.0.1)',
    )
    .option(
      '--log-file <path>',
      "the three processes' log, appended to, each line naming its binary ([DEFAULT] log_file) (default: stderr, each line prefixed with its process)",
    )
    .option('--debug', 'the three processes log at debug level ([DEFAULT] debug) (default: off)');
  configFileOptions(
    upCommand,
    "each child's, as it would find its own (Placement's placement.conf, the bare metal processes' ironic.conf); one file may hold both services' sections",
  ).action(async (options) => {
    const { up } = await import('./up-command.ts');
    setStatus(await up(options, io));
  });

  program
    .command('demo')
    .description('a short tour of the toolkit on embedded defaults')
    .action(async () => {
      const { runDemo } = await import('./demo.ts');
      await runDemo(out);
      setStatus(EXIT.ok);
    });

  const db = program.command('db').description('database schema, data migrations and services');
  databaseOptions(db.command('upgrade'))
    .description('check object versions, then apply the pending schema migrations')
    .action(async (options) => {
      const { dbUpgrade } = await import('./db-upgrade-command.ts');
      setStatus(await dbUpgrade(noticed(options), out, io.progress));
    });
  databaseOptions(db.command('online-migrations'))
    .description('run the online data migrations in batches until done (or --max-count rows)')
    .option(
      '--max-count <n>',
      'migrate at most this many rows, then stop (exit 1 if more remain) (default: all)',
    )
    .option(
      '--batch-size <n>',
      `rows per batch, that is per transaction (default: ${DEFAULT_BATCH_SIZE})`,
    )
    .option(
      '--sleep-between-batches <seconds>',
      'pause between two batches, to leave the database to the services (default: 0; on SQLite 0.002, the write lock left free for other writers)',
    )
    .option(
      '--max-run-seconds <seconds>',
      'start no batch after this long; exit 1 if rows remain, as --max-count does (default: no limit)',
    )
    .option(
      '--force',
      'run even while live services of an older release cannot read the object versions written (said on stderr) (default: refuse, exit 2)',
    )
    .action(async (options) => {
      const { dbOnlineMigrations } = await import('./db-online-migrations-command.ts');
      setStatus(
        await dbOnlineMigrations(noticed(options), out, io.progress, (line) => io.err(`${line}\n`)),
      );
    });
  databaseOptions(db.command('downgrade-rows'))
    .description(
      "going back a release: rewrite the rows written at object versions RELEASE does not know down to RELEASE's (every live process pinned to it first)",
    )
    .option(
      '--to <release>',
      'the release to go back to (default: none: it must be given, one of the releases this code knows)',
    )
    .option(
      '--max-count <n>',
      'rewrite at most this many rows, then stop (exit 1 if more remain) (default: all)',
    )
    .action(async (options) => {
      const { dbDowngradeRows } = await import('./db-downgrade-rows-command.ts');
      setStatus(await dbDowngradeRows(noticed(options), out));
    });
  databaseOptions(db.command('version'))
    .description('print the schema version: the last migration applied, or None')
    .option('--verbose', 'list every migration of the service with its state (default: off)')
    .action(async (options) => {
      const { dbVersion } = await import('./db-version-command.ts');
      setStatus(await dbVersion(noticed(options), out));
    });
  databaseOptions(db.command('services'))
    .description(
      "list the service's processes: version, pid, state, config files and health, and the caps in force",
    )
    .option('--remove-dead', 'remove services not seen for --dead-after seconds (default: off)')
    .option(
      '--dead-after <seconds>',
      `how long without a heartbeat makes a service dead (default: ${DEFAULT_LIVE_WITHIN_SECONDS})`,
    )
    .addOption(
      new Option(
        '--pin-release-version <release>',
        `the pin the caps in force are shown for; one of ${pinValues()}; empty: not pinned (default: the config file's [DEFAULT] pin_release_version, else none)`,
      ).env('BATON_PIN_RELEASE_VERSION'),
    )
    .option(
      '--all',
      "list every service's processes, not only those of the --service named (default: off)",
    )
    .option(
      '--wait-for <binary@host>',
      'list once that process serves, as a script starting it waits for it; exit 1 after --wait-timeout (default: list at once)',
    )
    .option('--wait-timeout <seconds>', 'how long --wait-for waits (default: 120)')
    .option('--json', 'print the services and the caps in force as JSON (default: a table)')
    .action(async (options) => {
      const { dbServices } = await import('./db-services-command.ts');
      setStatus(await dbServices(noticed(options), out));
    });

  databaseOptions(program.command('upgrade-check'))
    .description('check whether the deployment is ready for (or done with) an upgrade')
    .addOption(
      new Option(
        '--pin-release-version <release>',
        `the pin the service's processes run with; one of ${pinValues()}; empty: not pinned (default: the config file's [DEFAULT] pin_release_version, else none)`,
      ).env('BATON_PIN_RELEASE_VERSION'),
    )
    .action(async (options) => {
      const { upgradeCheck } = await import('./upgrade-check-command.ts');
      setStatus(await upgradeCheck(noticed(options), out));
    });

  const upgrade = program.command('upgrade').description('rolling upgrades');
  const plan = upgrade
    .command('plan')
    .description(
      "where the deployment stands in the rolling-upgrade procedure (docs/design.md) and the next step's commands; reads only",
    )
    .addOption(
      new Option(
        '--service <name>',
        'the service whose deployment it is (default: baremetal)',
      ).choices(SERVICE_NAMES),
    )
    .option('--db <url>', `database URL (default: the config file's, else ${defaultDbHelp()})`)
    .addOption(dataDirOption());
  configFileOptions(plan, "the service's database when --db is absent")
    .option('--json', 'print the plan as one JSON document (default: text)')
    .action(async (options) => {
      const { upgradePlan } = await import('./upgrade-plan-command.ts');
      // The default is said in the description, as every other one is (commander would repeat it).
      setStatus(await upgradePlan(noticed({ service: 'baremetal', ...options }), out));
    });

  program
    .command('config')
    .description("the services' config files")
    .command('sample')
    .description('print a commented sample config file with every option at its default')
    .addOption(serviceOption())
    .action(async (options) => {
      const { configSample } = await import('./config-sample-command.ts');
      setStatus(await configSample(options, out));
    });

  program
    .command('openapi')
    .description("print or write a service's OpenAPI 3.1 document per microversion")
    .addOption(
      new Option('--service <name>', 'the service whose API it describes')
        .choices(SERVICE_NAMES)
        .makeOptionMandatory(),
    )
    // Not --version: that one prints Baton's release, whatever the command.
    .option(
      '--microversion <X.Y>',
      'one microversion (default: the highest; with --out: every one)',
    )
    .option('--out <dir>', 'write <dir>/X.Y.json instead of printing (default: print)')
    .action(async (options) => {
      const { openApi } = await import('./openapi-command.ts');
      setStatus(await openApi(options, out));
    });

  const serve = program
    .command('placement')
    .description('the Placement service')
    .command('serve')
    .description('run the Placement API in the foreground until SIGTERM/SIGINT');
  configFileOptions(
    serve,
    "its options, in oslo.config's INI format; each flag below sets one of them and wins",
    'placement',
  );
  // --help shows where the database and the data directory are on this machine.
  const here = {
    ...PLACEMENT_CONFIG.defaults,
    databaseUrl: defaultDbUrl({ flag: process.env[DATA_DIR_ENV] }),
    dataDir: defaultDataDir().path,
  };
  addConfigFlags(serve, { ...PLACEMENT_CONFIG, defaults: here }).action(async (options) => {
    const { placementServe } = await import('./placement-serve-command.ts');
    setStatus(await placementServe(options, io));
  });

  const baremetal = program.command('baremetal').description('the bare metal (Ironic) service');
  const conductor = baremetal
    .command('conductor')
    .description('run a bare metal conductor in the foreground until SIGTERM/SIGINT');
  configFileOptions(
    conductor,
    "its options (ironic.conf), in oslo.config's INI format; each flag below sets one of them and wins",
    'ironic',
  );
  const conductorHere = {
    ...BAREMETAL_CONFIG.defaults,
    databaseUrl: defaultDbUrl({ flag: process.env[DATA_DIR_ENV] }),
    dataDir: defaultDataDir().path,
  };
  addConfigFlags(conductor, { ...BAREMETAL_CONFIG, defaults: conductorHere }).action(
    async (options) => {
      const { baremetalConductor } = await import('./baremetal-conductor-command.ts');
      setStatus(await baremetalConductor(options, io));
    },
  );
  const api = baremetal
    .command('api')
    .description('run the bare metal API in the foreground until SIGTERM/SIGINT, then drain');
  configFileOptions(
    api,
    "its options (ironic.conf), in oslo.config's INI format; each flag below sets one of them and wins",
    'ironic',
  );
  addConfigFlags(api, { ...BAREMETAL_API_CONFIG, defaults: conductorHere }).action(
    async (options) => {
      const { baremetalApi } = await import('./baremetal-api-command.ts');
      setStatus(await baremetalApi(options, io));
    },
  );

  program
    .command('rehearse')
    .description(
      'rehearse a rolling upgrade of a service from a recorded release to this working tree, under load',
    )
    .option(
      '--service <name>',
      'the service to upgrade: baremetal, or leases (the example service of examples/leases) (default: baremetal)',
    )
    .option(
      '--definition <file>',
      "a service defined in a file of your project (its default export); the project's git repository gives the releases and commits (default: none)",
    )
    .option(
      '--from <release>',
      'the recorded release (releases/*.json) to start from, by name or alias (default: the newest)',
    )
    .option(
      '--db <url>',
      'an empty database for the cluster: sqlite:<path>, postgresql://…, mysql://… (default: a SQLite file in a temporary folder)',
    )
    // Defaults are applied by the command (REHEARSE_DEFAULTS) and named here, once, for --help.
    .option('--rpc <transport>', 'RPC between the tiers: http or amqp (default: http)')
    .option(
      '--amqp-url <url>',
      'the RabbitMQ broker with --rpc amqp (default: amqp://guest:guest@127.0.0.1:5672/)',
    )
    .option('--step-seconds <n>', 'how long each step holds under load (default: 10)')
    .option('--rate <n>', 'requests per second the load generator aims at (default: 60)')
    .option('--workers <n>', 'concurrent clients of the load generator (default: 16)')
    .option(
      '--microversion <version>',
      "the API version of the load (both releases serve it) (default: the service's: 1.80 for baremetal, 1.0 for leases)",
    )
    .option(
      '--back-from <step>',
      'walk forward to this step of the table (1.1 to 3.4), then back to step 0 with the previous release (default: forward to the end)',
    )
    .option('--json <file>', 'write the whole report as JSON (default: none)')
    .option(
      '--html <file>',
      'write the report as one self-contained HTML page with plots of the load over time (default: none)',
    )
    .option(
      '--profile <folder>',
      'every process of the cluster writes a V8 CPU profile there when it stops, <host>.cpuprofile (default: none)',
    )
    .option(
      '--find-capacity',
      "measure what the cluster serves with the load unpaced, for one step's length before step 0 and after the last step, and read each step against it (default: off)",
    )
    .action(async (options) => {
      const { rehearseCommand } = await import('./rehearse-command.ts');
      setStatus(await rehearseCommand(options, out));
    });
  return program;
}

/** The shape of every error: `baton: error: <one line>`; details, if any, on the lines after. */
export function errorLines(message: string): string {
  const [first = '', ...details] = message.trim().split('\n');
  return [`baton: error: ${first}`, ...details].map((line) => `${line}\n`).join('');
}

/** Commander's message (`error: unknown option '--x'\n(Did you mean --y?)`) as one line. */
function commanderMessage(error: CommanderError): string {
  return error.message
    .replace(/^error: /, '')
    .split('\n')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
}

/** What a command that needs a subcommand says when it got none. */
function missingCommand(command: Command): string {
  const path: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) path.unshift(c.name());
  const names = command.commands.map((c) => c.name()).join(', ');
  return `'${path.join(' ')}' needs a command: ${names} (see ${path.join(' ')} --help)`;
}

/** Runs the command line and returns the exit status (no process.exit inside). */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let status: number = EXIT.ok;
  const program = buildProgram((s) => {
    status = s;
  }, io);
  // The command being parsed: the one a "needs a command" message is about.
  let current: Command = program;
  program.hook('preSubcommand', (_parent, sub) => {
    current = sub;
  });
  // Commander prints its errors itself, and the help when a command is missing; both are
  // replaced by one line in the shape of every other error.
  // (Commander writes the help to stderr only when a command is missing.)
  let helpForMissingCommand = false;
  for (const command of allCommands(program)) {
    command.configureOutput({
      writeErr: () => {
        helpForMissingCommand = true;
      },
      outputError: () => {},
    });
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof VersionRequested) {
      io.out(versionLine(await readBuildInfo()));
      return EXIT.ok;
    }
    if (error instanceof CommanderError) {
      // Help and version requests end "with an error" too; they are not failures.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
        return EXIT.ok;
      // `baton help` asked for it; a command without its subcommand ends here too.
      if (error.code === 'commander.help' && !helpForMissingCommand) return EXIT.ok;
      const message = helpForMissingCommand ? missingCommand(current) : commanderMessage(error);
      io.err(errorLines(message));
      return EXIT.usage;
    }
    if (error instanceof CliExit) {
      io.err(errorLines(error.message));
      return error.status;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(errorLines(`unexpected: ${message}`));
    return EXIT.failure;
  }
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap((sub) => allCommands(sub as Command))];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCli(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
