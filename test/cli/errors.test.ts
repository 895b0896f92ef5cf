/**
 * Every error of the `baton` command has one shape: `baton: error: <one line>` on stderr,
 * nothing on stdout, exit 64 for bad command-line input. Commander's own messages (unknown
 * option or command, missing argument or option, bad choice, excess arguments, a missing
 * subcommand) are reshaped to it; the commands are walked, so a new one is covered too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.ts';
// Its `err` leaves out the line a database command says first (its config files and database).
import { baton } from './support/run-baton.ts';

const ONE_ERROR_LINE = /^baton: error: [^\n]+\n$/;

function assertUsageError(
  result: { status: number; out: string; err: string },
  message: RegExp,
  what: string,
): void {
  assert.equal(result.status, 64, `${what}: ${result.err}`);
  assert.match(result.err, ONE_ERROR_LINE, what);
  assert.match(result.err, message, what);
  assert.equal(result.out, '', what);
}

/** The mandatory options a command needs before commander looks at anything else. */
function mandatory(command: Command): string[] {
  return command.options
    .filter((o) => o.mandatory)
    .flatMap((o) =>
      o.long === '--service' ? ['--service', 'placement'] : [o.long as string, 'x'],
    );
}

/** Every command of the program, as the words that run it. */
function commandPaths(
  command: Command,
  path: string[] = [],
): { path: string[]; command: Command }[] {
  return command.commands.flatMap((sub) => {
    const here = [...path, sub.name()];
    return [{ path: here, command: sub }, ...commandPaths(sub, here)];
  });
}

const COMMANDS = commandPaths(buildProgram(() => {}));
const LEAVES = COMMANDS.filter(({ command }) => command.commands.length === 0);
const GROUPS = COMMANDS.filter(({ command }) => command.commands.length > 0);

describe('baton: every error is one line, baton: error: …', () => {
  test('the commands walked include every database command and the servers', () => {
    const names = LEAVES.map(({ path }) => path.join(' '));
    for (const expected of [
      'db upgrade',
      'db version',
      'db services',
      'upgrade-check',
      'placement serve',
    ]) {
      assert.ok(names.includes(expected), `${expected} in ${names.join(', ')}`);
    }
  });

  test('an unknown option, on every command (with the suggestion on the same line)', async () => {
    for (const { path, command } of LEAVES) {
      const result = await baton(...path, ...mandatory(command), '--no-such-option');
      assertUsageError(result, /unknown option '--no-such-option'/, path.join(' '));
    }
    const close = await baton('db', 'upgrade', '--service', 'placement', '--dbb', 'x');
    assertUsageError(close, /unknown option '--dbb' \(Did you mean --db\?\)/, 'suggestion');
  });

  test('excess arguments, on every command that takes none', async () => {
    for (const { path, command } of LEAVES) {
      if (command.registeredArguments.length > 0) continue;
      const result = await baton(...path, ...mandatory(command), 'stray');
      assertUsageError(result, /too many arguments/, path.join(' '));
    }
  });

  test('an option without its value, and a required option left out', async () => {
    for (const { path, command } of LEAVES) {
      const valued = command.options.find((o) => o.required && !o.mandatory);
      if (valued !== undefined) {
        const result = await baton(...path, ...mandatory(command), valued.long as string);
        assertUsageError(result, /argument missing/, `${path.join(' ')} ${valued.long}`);
      }
      if (command.options.some((o) => o.mandatory && o.long === '--service')) {
        const result = await baton(...path);
        assertUsageError(
          result,
          /required option '--service <name>' not specified/,
          path.join(' '),
        );
        const bad = await baton(...path, '--service', 'nova');
        assertUsageError(bad, /argument 'nova' is invalid\. Allowed choices are /, path.join(' '));
      }
    }
  });

  test('a command group without its command names the commands it has', async () => {
    const top = await baton();
    assertUsageError(top, /^baton: error: 'baton' needs a command: up, demo, db, /, 'baton');
    for (const { path, command } of GROUPS) {
      const result = await baton(...path);
      const names = command.commands.map((c) => c.name()).join(', ');
      assertUsageError(
        result,
        new RegExp(`needs a command: ${names} \\(see baton ${path.join(' ')} --help\\)`),
        path.join(' '),
      );
    }
    assertUsageError(await baton('nonsense'), /unknown command 'nonsense'/, 'nonsense');
    assertUsageError(
      await baton('db', 'upgrad'),
      /unknown command 'upgrad' \(Did you mean upgrade\?\)/,
      'db upgrad',
    );
  });

  test("the commands' own checks have the same shape", async () => {
    const memory = ['--service', 'placement', '--db', 'sqlite::memory:'];
    const cases: [string[], RegExp][] = [
      [
        ['db', 'online-migrations', ...memory, '--max-count', '0'],
        /max-count must be a positive integer/,
      ],
      [
        ['db', 'online-migrations', ...memory, '--batch-size', 'x'],
        /batch-size must be a positive integer/,
      ],
      [
        ['db', 'services', ...memory, '--dead-after', '-1'],
        /--dead-after must be a positive number/,
      ],
      [['db', 'upgrade', '--service', 'placement', '--db', 'oracle://h/x'], /unsupported scheme/],
      [
        ['upgrade-check', ...memory, '--pin-release-version', 'zed'],
        /'zed' is not a known release/,
      ],
      [
        ['placement', 'serve', '--port', '99999'],
        /--port: '99999' is not an integer from 0 to 65535/,
      ],
      [['placement', 'serve', '--workers', '0'], /--workers: '0' is not an integer from 1 to 64/],
      [['placement', 'serve', '--config-file', '/nonexistent/placement.conf'], /no such file/],
    ];
    for (const [argv, message] of cases) {
      assertUsageError(await baton(...argv), message, argv.join(' '));
    }
  });

  test('help and --version are not errors', async () => {
    for (const argv of [['--help'], ['help'], ['db', '--help'], ['help', 'db'], ['--version']]) {
      const result = await baton(...argv);
      assert.equal(result.status, 0, argv.join(' '));
      assert.equal(result.err, '', argv.join(' '));
      assert.notEqual(result.out, '', argv.join(' '));
    }
  });
});
