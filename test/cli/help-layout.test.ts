/**
 * Every command's `--help` wraps at the terminal's width as the others do (issue 22 §6):
 * `baremetal api --help` printed each of its descriptions on one line of hundreds of columns,
 * because commander stops wrapping when its longest option leaves the descriptions fewer than
 * 40 columns. Walked over every command, so one added later is held to it too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.ts';

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap((sub) => allCommands(sub as Command))];
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

describe('--help', () => {
  const commands = allCommands(buildProgram(() => {}));

  test('walks the servers too', () => {
    const paths = commands.map(pathOf);
    for (const expected of ['baton baremetal api', 'baton baremetal conductor', 'baton up']) {
      assert.ok(paths.includes(expected), expected);
    }
  });

  for (const width of [80, 120]) {
    test(`every line fits in ${width} columns, but a word longer than the column`, () => {
      for (const command of commands) {
        command.configureOutput({ getOutHelpWidth: () => width });
        const help = command.helpInformation({ error: false });
        for (const line of help.split('\n')) {
          if (line.length <= width) continue;
          // A single word (a path, a URL) cannot be broken.
          assert.match(line, /^\s*\S+$/, `${pathOf(command)}: ${line.length} columns: ${line}`);
        }
      }
    });
  }
});
