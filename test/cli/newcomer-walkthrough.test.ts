/**
 * README.md's "First steps", as a newcomer would follow them, then every example of the README
 * and docs/*.md, in reading order, on that same deployment (issue 22 §6: read top to bottom,
 * the README's curl block answered 409, 404, 400). The README's first command (less its `npm
 * install &&`, which this checkout has done) starts it; then each block marked `<!-- walkthrough:
 * NAME -->` or `<!-- example -->` runs as written, in bash, with the real `baremetal` and
 * `openstack` clients, `curl` failing on any HTTP error, and `baton` the checkout's. A block of
 * `$ command` lines followed by what it prints is run line by line, and what it prints must
 * hold the lines shown, in order (`…` standing for what differs from machine to machine). Only
 * the addresses change: `baton up` runs on free ports here (BATON_PLACEMENT_PORT and
 * BATON_BAREMETAL_PORT are 0), so `http://127.0.0.1:6385` and `:8778` in the blocks become the
 * addresses it prints. Then the node must be `active` and the allocation exist, read back from
 * the APIs themselves, and SIGTERM must stop `baton up` with status 0. A code block that runs
 * commands against a deployment without a marker fails the test, so a new one cannot be missed
 * (docs/tutorial.md's blocks, marked `<!-- tutorial: … -->`, run in test/docs/tutorial.test.ts).
 *
 * Needs python3-ironicclient, python3-openstackclient and python3-osc-placement (.ci/debian-
 * packages): without them the walk is skipped with the reason, and fails under CI=true.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { codeBlocksOf } from '../support/markdown-blocks.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'baton.mjs');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BAREMETAL_ENDPOINT = 'http://127.0.0.1:6385';
const PLACEMENT_ENDPOINT = 'http://127.0.0.1:8778';

/** The environment the clients run in: none of the caller's OpenStack settings. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('OS_') || key.toLowerCase().startsWith('npm_')) continue;
    if (key === 'PYTHONPATH' || key === 'PYTHONHOME' || key === 'VIRTUAL_ENV') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

function clientsMissing(): string | undefined {
  const checks: [string, string[], string][] = [
    ['baremetal', ['--version'], 'python3-ironicclient'],
    ['openstack', ['--version'], 'python3-openstackclient'],
    ['/usr/bin/python3', ['-c', 'import osc_placement'], 'python3-osc-placement'],
  ];
  for (const [command, args, pkg] of checks) {
    const run = spawnSync(command, args, { env: cleanEnv(), stdio: 'ignore' });
    if (run.status !== 0) return `${command} ${args.join(' ')} fails: install ${pkg}`;
  }
  return undefined;
}

/** The code blocks of README.md marked `<!-- walkthrough: name -->`, by name. */
function walkthroughBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  const marker = /^<!-- walkthrough: (\S+) -->\n```\n([\s\S]*?)\n```$/gm;
  for (const [, name, body] of text.matchAll(marker)) {
    if (name !== undefined && body !== undefined) blocks.set(name, body);
  }
  return blocks;
}

/** README.md, then docs/*.md by name: the order the examples run in. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

interface Block {
  readonly where: string;
  /** The comment just before the block (`<!-- example -->`), if any. */
  readonly marker: string | undefined;
  readonly body: string;
}

function codeBlocks(file: string): Block[] {
  return codeBlocksOf(ROOT, file).map(({ line, marker, body }) => ({
    where: `${file}:${line}`,
    marker,
    body,
  }));
}

/** A line that runs something against a deployment (not a synopsis: `[--flag]`, `[options]`). */
const DEPLOYMENT_COMMAND =
  /^\s*(\$ )?(curl|baremetal|openstack|npx baton|baton|node bin\/baton\.mjs|node \$NEW)\s/;
const SYNOPSIS = /\[(--|options\]|[A-Z])/;

/** Every example to run, in order: the walkthrough blocks and those marked `example`. */
function examples(): Block[] {
  return DOCUMENTS.flatMap(codeBlocks).filter(
    (block) =>
      block.marker !== undefined && /^<!-- (walkthrough: \S+|example) -->$/.test(block.marker),
  );
}

/** `$ command` lines, each with the lines it prints. */
function transcript(body: string): { command: string; shows: string[] }[] | undefined {
  const lines = body.split('\n');
  if (!lines[0]?.startsWith('$ ')) return undefined;
  const steps: { command: string; shows: string[] }[] = [];
  for (const line of lines) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shows: [] });
    else steps.at(-1)?.shows.push(line);
  }
  return steps;
}

/** Each line shown appears in `output`, in order; `…` stands for anything. */
function holdsInOrder(output: string, shows: readonly string[]): string | undefined {
  const lines = output.split('\n');
  let at = 0;
  for (const shown of shows) {
    const pattern = new RegExp(
      `^${shown
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const found = lines.findIndex((line, i) => i >= at && pattern.test(line));
    if (found < 0) return shown;
    at = found + 1;
  }
  return undefined;
}

/** README's first code line, less a leading `npm install &&`. */
function firstCommand(text: string): string[] {
  const first = /```\n(.+)\n/.exec(text)?.[1] ?? '';
  return (first.split('&&').at(-1) ?? '').trim().split(/\s+/);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const missing = clientsMissing();
if (missing !== undefined && process.env.CI === 'true') {
  throw new Error(`${missing} (CI=true: the newcomer walkthrough must run)`);
}

describe("README's First steps", { skip: missing }, () => {
  const blocks = walkthroughBlocks(README);
  const dataDir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
  // The examples' `/etc`: empty, whatever this machine's holds.
  const emptyEtc = mkdtempSync(join(tmpdir(), 'walkthrough-etc-'));
  let up: ChildProcess | undefined;
  let output = '';
  after(() => {
    if (up?.pid !== undefined && up.exitCode === null) {
      try {
        process.kill(-up.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(emptyEtc, { recursive: true, force: true });
  });

  it('has the two marked blocks, on the default addresses, after `npm run up`', () => {
    assert.deepEqual(firstCommand(README), ['npm', 'run', 'up']);
    assert.deepEqual([...blocks.keys()], ['baremetal', 'placement']);
    assert.ok(blocks.get('baremetal')?.includes(BAREMETAL_ENDPOINT));
    assert.ok(blocks.get('placement')?.includes(PLACEMENT_ENDPOINT));
  });

  it('takes a clone to a deployed node and an allocation with the real clients', async () => {
    const [command = '', ...args] = firstCommand(README);
    up = spawn(command, args, {
      cwd: ROOT,
      detached: true,
      env: cleanEnv({
        BATON_DATA_DIR: dataDir,
        BATON_PLACEMENT_PORT: '0',
        BATON_BAREMETAL_PORT: '0',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    up.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    up.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => up?.once('exit', resolve));
    for (let i = 0; i < 1200 && !/^baton up: ready/m.test(output); i++) {
      assert.equal(up.exitCode, null, `baton up ended:\n${output}`);
      await sleep(100);
    }
    const placement = /^ {2}Placement\s+(http:\S+)$/m.exec(output)?.[1];
    const baremetal = /^ {2}Bare metal API\s+(http:\S+)$/m.exec(output)?.[1];
    assert.ok(placement !== undefined && baremetal !== undefined, output);

    // `curl` fails on an HTTP error (the README's block read top to bottom answered 409, 404,
    // 400 and went on); `baton` is the checkout's, on the deployment's data directory.
    const prelude = [
      'curl() { command curl --fail-with-body "$@"; echo; }',
      `baton() { node ${BIN} "$@"; }`,
      '',
    ].join('\n');
    const env = cleanEnv({ BATON_DATA_DIR: dataDir, BATON_SYSCONFDIR: emptyEtc });
    const bash = (script: string, what: string) => {
      const result = spawnSync('bash', ['-euo', 'pipefail', '-c', `${prelude}${script}`], {
        env,
        encoding: 'utf8',
        timeout: 240_000,
      });
      return { ...result, what };
    };
    const outputs = new Map<string, string>();
    for (const block of examples()) {
      const script = block.body
        .replaceAll(BAREMETAL_ENDPOINT, baremetal)
        .replaceAll(PLACEMENT_ENDPOINT, placement);
      const steps = transcript(script);
      if (steps === undefined) {
        const result = bash(script, block.where);
        assert.equal(result.status, 0, `${block.where}:\n${result.stdout}\n${result.stderr}`);
        outputs.set(block.where, result.stdout);
        continue;
      }
      for (const step of steps) {
        // What a transcript shows is what a terminal shows: stdout and stderr together.
        const result = bash(`${step.command} 2>&1`, block.where);
        const missing = holdsInOrder(result.stdout, step.shows);
        assert.equal(missing, undefined, `${block.where}: $ ${step.command}\n${result.stdout}`);
      }
    }
    const [first, second] = [...outputs.values()];
    assert.equal(first?.trim().split('\n').at(-1), 'active');
    assert.match(second ?? '', /VCPU.*2/);
    assert.equal(existsSync('/srv/baton'), false, 'the documented missing database was not made');

    // Read back from the services themselves, not from the clients' tables.
    const node = await fetch(`${baremetal}/v1/nodes/node-1`, {
      headers: { 'X-OpenStack-Ironic-API-Version': '1.80' },
    });
    assert.equal(node.status, 200);
    const nodeBody = (await node.json()) as { provision_state: string; driver: string };
    assert.equal(nodeBody.provision_state, 'active');
    assert.equal(nodeBody.driver, 'fake-hardware');
    const allocations = await fetch(
      `${placement}/allocations/6b5c6f8e-3a2f-4b0e-9d6e-1c2d3e4f5a6b`,
      { headers: { 'X-Auth-Token': 'admin', 'OpenStack-API-Version': 'placement 1.39' } },
    );
    assert.equal(allocations.status, 200);
    const body = (await allocations.json()) as {
      allocations: Record<string, { resources: Record<string, number> }>;
      project_id: string;
    };
    assert.deepEqual(
      Object.values(body.allocations).map((a) => a.resources),
      [{ VCPU: 2, MEMORY_MB: 2048 }],
    );
    assert.equal(body.project_id, 'my-project');

    up.kill('SIGTERM');
    assert.equal(await exited, 0, output);
  });
});

describe('README and docs examples', () => {
  it('every block that runs commands against a deployment is marked: run here, or why not', () => {
    const unmarked = DOCUMENTS.flatMap(codeBlocks)
      .filter((block) =>
        block.body
          .split('\n')
          .some((line) => DEPLOYMENT_COMMAND.test(line) && !SYNOPSIS.test(line)),
      )
      .filter(
        (block) =>
          block.marker === undefined ||
          !/^<!-- (walkthrough: \S+|example|server: .+|rolling-upgrade: .+|tutorial: .+|not run: .+) -->$/.test(
            block.marker,
          ),
      )
      .map((block) => `${block.where}: ${block.body.split('\n')[0]}`);
    assert.deepEqual(unmarked, []);
    // What this file runs, in order.
    assert.deepEqual(
      examples().map((block) => block.where.replace(/:\d+$/, '')),
      ['README.md', 'README.md', 'README.md', 'docs/operations.md', 'docs/operations.md'],
    );
  });
});
