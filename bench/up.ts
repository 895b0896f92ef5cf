/**
 * Start-up times of the `baton` command (docs/operations.md, "Start-up times"):
 *   - `node bin/baton.mjs --version`, wall and CPU time, median of 5;
 *   - `node bin/baton.mjs up` until all three processes answer (Placement's `GET /`, the bare
 *     metal API's `GET /`, and the conductor alive in the API's `GET /v1/conductors`), on a new
 *     data directory (schemas created) and again on the same one (schemas current), median of 3.
 * Prints the load average beside them: on a shared 2-vCPU machine the wall times follow it.
 * Needs `npm run build` first (otherwise the sources run through tsx, as `baton` says).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'baton.mjs');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function versionRun(): { wall: number; cpu: number } {
  const started = performance.now();
  const run = spawnSync('bash', ['-c', `TIMEFORMAT='%U %S'; time node ${BIN} --version`], {
    encoding: 'utf8',
  });
  const wall = (performance.now() - started) / 1000;
  const [user = '0', sys = '0'] = run.stderr.trim().split('\n').at(-1)?.split(' ') ?? [];
  return { wall, cpu: Number(user) + Number(sys) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

async function answers(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  try {
    const response = await fetch(url, { headers });
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

async function upRun(dataDir: string): Promise<number> {
  const [placementPort, baremetalPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      BIN,
      'up',
      '--data-dir',
      dataDir,
      '--placement-port',
      String(placementPort),
      '--baremetal-port',
      String(baremetalPort),
    ],
    { stdio: 'ignore' },
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`baton up exited ${child.exitCode}`);
      const placement = await answers(`http://127.0.0.1:${placementPort}/`);
      const conductors = (await answers(`http://127.0.0.1:${baremetalPort}/v1/conductors`, {
        'X-OpenStack-Ironic-API-Version': '1.49',
      })) as { conductors?: { alive: boolean }[] } | undefined;
      if (placement !== undefined && conductors?.conductors?.some((c) => c.alive) === true) {
        return (performance.now() - started) / 1000;
      }
      await sleep(20);
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const load = () => loadavg()[0]?.toFixed(1);
const versions = Array.from({ length: 5 }, versionRun);
console.log(
  `baton --version: ${median(versions.map((v) => v.wall)).toFixed(2)} s wall, ${median(versions.map((v) => v.cpu)).toFixed(2)} s CPU (median of 5; load ${load()})`,
);
const fresh: number[] = [];
const again: number[] = [];
for (let i = 0; i < 3; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-up-'));
  try {
    fresh.push(await upRun(dataDir));
    again.push(await upRun(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(
  `baton up until all three answer: ${median(fresh).toFixed(2)} s on a new data directory, ${median(again).toFixed(2)} s with the schemas current (median of 3; load ${load()})`,
);
