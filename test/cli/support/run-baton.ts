/** Runs the `baton` CLI in this process, collecting what it prints and its exit status. */
import { runCli } from '../../../src/cli/main.ts';

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
