/**
 * Start-up times of the `baton` command (docs/operations.md, "Start-up times"):
 *   - `node bin/baton.mjs --version`, wall and CPU time, median of 5;
 *   - `node bin/baton.mjs up` until all three processes answer (Placement's `GET /`, the bare
 *     metal API's `GET /`, and the conductor alive in the API's `GET /v1/conductors`), on a new
 *     data directory (schemas created) and again on the same one (schemas current), median of 3.
 * Prints the load average beside them: on a shared 2-vCPU machine the wall times follow it,
 * so the CPU time spent until ready (in `baton up`, and in its children) is printed too.
 * Needs `npm run build` first (otherwise the sources run through tsx, as `baton` says).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** CPU seconds (user + system) of a process, from /proc (clock ticks of 1/100 s). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

interface UpRun {
  readonly wall: number;
  /** CPU seconds until ready: `baton up` itself, and its three children together. */
  readonly parentCpu: number;
  readonly childrenCpu: number;
}

async function upRun(dataDir: string): Promise<UpRun> {
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
        const wall = (performance.now() - started) / 1000;
        const pid = child.pid ?? 0;
        const children = childrenOf(pid).reduce((sum, c) => sum + cpuOf(c), 0);
        return { wall, parentCpu: cpuOf(pid), childrenCpu: children };
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
const fresh: UpRun[] = [];
const again: UpRun[] = [];
for (let i = 0; i < 3; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-up-'));
  try {
    fresh.push(await upRun(dataDir));
    again.push(await upRun(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const line = (runs: UpRun[]) => {
  const at = (pick: (run: UpRun) => number) => median(runs.map(pick)).toFixed(2);
  return `${at((r) => r.wall)} s wall; CPU until then ${at((r) => r.parentCpu)} s in baton up, ${at((r) => r.childrenCpu)} s in its three children`;
};
console.log(`baton up until all three answer (median of 3; load ${load()}):`);
console.log(`  new data directory:   ${line(fresh)}`);
console.log(`  schemas current:      ${line(again)}`);
