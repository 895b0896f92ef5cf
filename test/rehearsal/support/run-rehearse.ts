/**
 * `baton rehearse` run as a user runs it, from the repository's root: its output, or the test
 * failed with the exit code and everything the command printed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** Runs `baton rehearse <args>`; answers what it printed on stdout. */
export async function runRehearse(args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'bin/baton.mjs'), 'rehearse', ...args],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    assert.fail(
      `baton rehearse exited ${failed.code}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    );
  }
}
