/**
 * The `baton` command. Every database command takes `--service NAME` and
 * `--db URL` (default: the embedded SQLite file). Errors end with one line
 * on stderr and a non-zero status; bad input exits 64.
 */
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { baremetalApi } from './baremetal-api-command.ts';
import { baremetalConductor } from './baremetal-conductor-command.ts';
import { CliExit, EXIT } from './cli-error.ts';
import { defaultDbUrl } from './command-context.ts';
import { dbOnlineMigrations } from './db-online-migrations-command.ts';
import { dbServices } from './db-services-command.ts';
import { dbUpgrade } from './db-upgrade-command.ts';
import { runDemo } from './demo.ts';
import { collectList, placementServe } from './placement-serve-command.ts';
import { SERVICES } from './service-catalog.ts';
import { upgradeCheck } from './upgrade-check-command.ts';

/** Where a run writes; tests pass their own. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
}

const processIo: CliIo = {
  out: (line) => {
    process.stdout.write(`${line}\n`);
  },
  err: (text) => {
    process.stderr.write(text);
  },
};

function databaseOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--service <name>', 'the service whose database it is')
        .choices(Object.keys(SERVICES))
        .makeOptionMandatory(),
    )
    .option(
      '--db <url>',
      `database URL: sqlite:<path>, postgresql://…, mysql://… (default ${defaultDbUrl()})`,
    )
    .option(
      '--config-file <path>',
      "the service's config file (its database URL when --db is absent, and its settings)",
    );
}

export function buildProgram(setStatus: (status: number) => void, io: CliIo = processIo): Command {
  const out = io.out;
  const program = new Command('baton')
    .description('Rolling upgrades for services sharing one SQL database')
    .exitOverride()
    .configureOutput({ writeErr: io.err, writeOut: (text) => io.out(text.trimEnd()) })
    .showHelpAfterError(false);

  program
    .command('demo')
    .description('a short tour of the toolkit on embedded defaults')
    .action(async () => {
      await runDemo(out);
      setStatus(EXIT.ok);
    });

  const db = program.command('db').description('database schema, data migrations and services');
  databaseOptions(db.command('upgrade'))
    .description('check object versions, then apply the pending schema migrations')
    .action(async (options) => setStatus(await dbUpgrade(options, out)));
  databaseOptions(db.command('online-migrations'))
    .description('run the online data migrations in batches until done (or --max-count rows)')
    .option('--max-count <n>', 'migrate at most this many rows, then stop (exit 1 if more remain)')
    .allowExcessArguments(false)
    .option('--batch-size <n>', 'rows per batch (per transaction)')
    .action(async (options) =>
      setStatus(await dbOnlineMigrations(options, out, (line) => io.err(`${line}\n`))),
    );
  databaseOptions(db.command('services'))
    .description('list the registered services and their versions')
    .option('--remove-dead', 'remove services not seen for --dead-after seconds')
    .option('--dead-after <seconds>', 'how long without a heartbeat makes a service dead')
    .action(async (options) => setStatus(await dbServices(options, out)));

  databaseOptions(program.command('upgrade-check'))
    .description('check whether the deployment is ready for (or done with) an upgrade')
    .option(
      '--pin-release-version <release>',
      'the pin_release_version setting',
      process.env.BATON_PIN_RELEASE_VERSION,
    )
    .action(async (options) => setStatus(await upgradeCheck(options, out)));

  program
    .command('placement')
    .description('the Placement service')
    .command('serve')
    .description('run the Placement API in the foreground until SIGTERM/SIGINT')
    .option('--config-file <path>', 'oslo.config-style INI file (flags override it)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (default 8778; 0 picks a free one)')
    .option('--db <url>', `database URL (default ${defaultDbUrl()})`)
    .option('--auth-strategy <strategy>', 'only noauth2 is implemented')
    .option('--enforce-scope', '[oslo_policy] enforce_scope')
    .option('--enforce-new-defaults', '[oslo_policy] enforce_new_defaults')
    .option('--policy-file <path>', 'YAML or JSON rules overriding the defaults')
    .option(
      '--cors-allowed-origin <origin>',
      'allowed CORS origin (repeatable or comma-separated)',
      collectList,
    )
    .option('--cors-allow-headers <headers>', 'comma-separated CORS allow_headers')
    .option(
      '--pin-release-version <release>',
      'serve at most the microversion of this release',
      process.env.BATON_PIN_RELEASE_VERSION,
    )
    .option('--workers <n>', 'server processes sharing the port (default 1)')
    .action(async (options) => setStatus(await placementServe(options, io)));

  const baremetal = program.command('baremetal').description('the bare metal (Ironic) service');
  baremetal
    .command('conductor')
    .description('run a bare metal conductor in the foreground until SIGTERM/SIGINT')
    .option('--config-file <path>', 'oslo.config-style INI file (flags override it)')
    .option('--db <url>', `database URL (default ${defaultDbUrl()})`)
    .option('--host <name>', "[DEFAULT] host: this conductor's name (default the machine's)")
    .option('--conductor-group <group>', '[conductor] conductor_group')
    .option('--rpc-transport <kind>', 'http (default), amqp or local')
    .option('--rpc-transport-url <url>', 'http: listen address; amqp: broker URL')
    .option(
      '--pin-release-version <release>',
      'speak at most what this release speaks',
      process.env.BATON_PIN_RELEASE_VERSION,
    )
    .action(async (options) => setStatus(await baremetalConductor(options, io)));
  baremetal
    .command('api')
    .description('run the bare metal API in the foreground until SIGTERM/SIGINT, then drain')
    .option('--config-file <path>', 'oslo.config-style INI file (flags override it)')
    .option('--db <url>', `database URL (default ${defaultDbUrl()})`)
    .option('--host <address>', '[api] host_ip: address to listen on (default 127.0.0.1)')
    .option('--port <port>', '[api] port (default 6385; 0 picks a free one)')
    .option(
      '--pin-release-version <release>',
      'serve at most the microversion of this release',
      process.env.BATON_PIN_RELEASE_VERSION,
    )
    .action(async (options) => setStatus(await baremetalApi(options, io)));
  return program;
}

/** Runs the command line and returns the exit status (no process.exit inside). */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let status: number = EXIT.ok;
  const program = buildProgram((s) => {
    status = s;
  }, io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version requests end "with an error" too; they are not failures.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
        return EXIT.ok;
      if (error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    if (error instanceof CliExit) {
      io.err(`baton: ${error.message}\n`);
      return error.status;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`baton: unexpected error: ${message}\n`);
    return EXIT.failure;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCli(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
