#!/usr/bin/env node
// The `baton` command. It runs in this process (no child: a supervisor's signals reach the
// server itself) the compiled build in dist/, which `npm install` makes (`npm run build`
// remakes it). When dist/ is missing or older than src/ (sources edited since the last build),
// it runs the sources through tsx instead, slower to start, with a one-line notice: never
// stale code. Without tsx (installed without dev dependencies) it refuses and says what to run.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStatus } from './build-state.mjs';

const args = process.argv.slice(2);
// The serving commands: a SIGHUP while the code still loads (before the command's own handler,
// which holds a reload for when it serves) must not end the process as Node's default does;
// no settings have been read yet, so there is nothing to reload.
const serving = new Set(['up', 'placement serve', 'baremetal api', 'baremetal conductor']);
if (serving.has(args[0]) || serving.has(args.slice(0, 2).join(' '))) {
  process.on('SIGHUP', () => {});
  // Nor must Ctrl-C or a SIGTERM (Node's default: death by the signal, exit 130 or 143): the
  // first one is recorded, and the command stops right after its start, in order, exit 0
  // (src/service/stop-signal.ts reads it).
  const early = Symbol.for('baton.earlyStopSignal');
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      globalThis[early] ??= signal;
    });
  }
}

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const status = buildStatus(root);
let cli;
if (status === 'current') {
  cli = await import('../dist/cli/main.js');
} else {
  const why = status === 'missing' ? 'dist/ has no build' : 'dist/ is older than src/';
  // Under `baton up`, which process says it (the CLI's own lines do the same: src/cli/main.ts).
  const prefix = process.env.BATON_LINE_PREFIX ?? '';
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      `${prefix}baton: error: ${why} and tsx is not installed: run \`npm run build\`\n`,
    );
    process.exit(1);
  }
  process.stderr.write(
    `${prefix}baton: ${why} (\`npm run build\` remakes it); running src/ through tsx\n`,
  );
  register();
  cli = await import('../src/cli/main.ts');
}
process.exitCode = await cli.runCli(args);
