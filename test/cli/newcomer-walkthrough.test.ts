/**
 * README.md's "First steps", as a newcomer would follow them: the README's first command
 * (less its `npm install &&`, which this checkout has done), then each block marked
 * `<!-- walkthrough: NAME -->`, as written, in bash, with the real `baremetal` and `openstack`
 * clients. Only the addresses change: `baton up` runs on free ports here (BATON_PLACEMENT_PORT
 * and BATON_BAREMETAL_PORT are 0), so `http://127.0.0.1:6385` and `:8778` in the blocks become
 * the addresses it prints. Then the node must be `active` and the allocation exist, read back
 * from the APIs themselves, and SIGTERM must stop `baton up` with status 0.
 *
 * Needs python3-ironicclient, python3-openstackclient and python3-osc-placement (.ci/debian-
 * packages): without them the test is skipped with the reason, and fails under CI=true.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
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

    const run = (name: string) => {
      const script = (blocks.get(name) ?? '')
        .replaceAll(BAREMETAL_ENDPOINT, baremetal)
        .replaceAll(PLACEMENT_ENDPOINT, placement);
      const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
        env: cleanEnv(),
        encoding: 'utf8',
        timeout: 240_000,
      });
      assert.equal(result.status, 0, `${name} block:\n${result.stdout}\n${result.stderr}`);
      return result.stdout;
    };
    assert.equal(run('baremetal').trim().split('\n').at(-1), 'active');
    const shown = run('placement');
    assert.match(shown, /VCPU.*2/);

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
