/** Runs the `baton` CLI in this process, collecting what it prints and its exit status. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main.ts';
import { SYSCONFDIR_ENV } from '../../../src/service/config-files.ts';

// The commands look for config files in /etc as the real services do; this machine's /etc may
// hold the real Ironic's (bin/test.mjs gives `npm test` an empty one; a file run alone too).
process.env[SYSCONFDIR_ENV] ??= mkdtempSync(join(tmpdir(), 'baton-test-etc-'));

/**
 * `err` is stderr less the line a database command starts with, naming its config files and
 * database (`config: …; database: …`), which is `config` (empty for other commands).
 */
export async function baton(
  ...argv: string[]
): Promise<{ status: number; out: string; err: string; config: string }> {
  let out = '';
  let err = '';
  let config = '';
  const status = await runCli(argv, {
    out: (line) => (out += `${line}\n`),
    err: (text) => {
      if (text.startsWith('config: ')) config += text;
      else err += text;
    },
  });
  return { status, out, err, config };
}
