/**
 * The `baton` command. Every database command takes `--service NAME` and
 * `--db URL` (default: the embedded SQLite file). Errors end with one line
 * on stderr and a non-zero status; bad input exits 64.
 */
import { pathToFileURL } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { toList } from '../placement/config-file.ts';
import { readBuildInfo, versionLine } from './build-info.ts';
import { CliExit, EXIT } from './cli-error.ts';
import { defaultDbUrl } from './data-dir.ts';
import { SERVICE_NAMES } from './service-catalog.ts';

// Each command's module is imported when the command runs: the database drivers, Fastify and
// the services' code cost ~0.5 s of CPU to load, which `--help` and `--version` never pay.

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

/** Commander's collector for a repeatable, comma-separable option. */
function collectList(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), ...toList(value)];
}

/** `--version` seen: runCli prints the version line instead of running anything. */
class VersionRequested extends Error {}

function databaseOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--service <name>', 'the service whose database it is')
        .choices(SERVICE_NAMES)
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
    .showHelpAfterError(false)
    .option('-V, --version', "print the release, the services' releases and the commit")
    .on('option:version', () => {
      throw new VersionRequested();
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
      setStatus(await dbUpgrade(options, out));
    });
  databaseOptions(db.command('online-migrations'))
    .description('run the online data migrations in batches until done (or --max-count rows)')
    .option('--max-count <n>', 'migrate at most this many rows, then stop (exit 1 if more remain)')
    .option('--batch-size <n>', 'rows per batch (per transaction)')
    .action(async (options) => {
      const { dbOnlineMigrations } = await import('./db-online-migrations-command.ts');
      setStatus(await dbOnlineMigrations(options, out));
    });
  databaseOptions(db.command('services'))
    .description('list the registered services and their versions')
    .option('--remove-dead', 'remove services not seen for --dead-after seconds')
    .option('--dead-after <seconds>', 'how long without a heartbeat makes a service dead')
    .action(async (options) => {
      const { dbServices } = await import('./db-services-command.ts');
      setStatus(await dbServices(options, out));
    });

  databaseOptions(program.command('upgrade-check'))
    .description('check whether the deployment is ready for (or done with) an upgrade')
    .option(
      '--pin-release-version <release>',
      'the pin_release_version setting',
      process.env.BATON_PIN_RELEASE_VERSION,
    )
    .action(async (options) => {
      const { upgradeCheck } = await import('./upgrade-check-command.ts');
      setStatus(await upgradeCheck(options, out));
    });

  program
    .command('placement')
    .description('the Placement service')
    .command('serve')
    .description('run the Placement API in the foreground until SIGTERM/SIGINT')
    .option('--config-file <path>', 'oslo.config-style INI file (flags override it)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option(
      '--port <port>',
      'port to listen on (default 8778; 0 picks a free one; BATON_PLACEMENT_PORT sets it too)',
      process.env.BATON_PLACEMENT_PORT,
    )
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
    // Logs, health check and metrics (docs/operations.md); each flag wins over its INI option.
    .option('--debug', '[DEFAULT] debug: log at debug level')
    .option(
      '--log-level <level>',
      'trace, debug, info, warn, error, fatal or silent (wins over --debug)',
    )
    .option('--log-format <format>', 'text (default) or json ([DEFAULT] use_json)')
    .option('--log-file <path>', '[DEFAULT] log_file: append the log there instead of stderr')
    .option(
      '--metrics-port <port>',
      '[metrics] bind_port: /metrics on a port of its own (with --workers: the whole pool)',
    )
    .option(
      '--drain-delay <seconds>',
      '[healthcheck] drain_delay: answer 503 DRAINING this long after SIGTERM before closing',
    )
    .action(async (options) => {
      const { placementServe } = await import('./placement-serve-command.ts');
      setStatus(await placementServe(options, io));
    });
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
    if (error instanceof VersionRequested) {
      io.out(versionLine(await readBuildInfo()));
      return EXIT.ok;
    }
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
