#!/usr/bin/env node
// The `baton` command as an npm bin: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
