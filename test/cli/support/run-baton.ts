/** Runs the `baton` CLI in this process, collecting what it prints and its exit status. */
import { runCli } from '../../../src/cli/main.ts';

export async function baton(
  ...argv: string[]
): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await runCli(argv, {
    out: (line) => (out += `${line}\n`),
    err: (text) => (err += text),
  });
  return { status, out, err };
}
