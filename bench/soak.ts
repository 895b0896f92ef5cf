/**
 * The soak (`npm run soak -- --minutes N`, default 60; not in CI): Placement (`baton placement
 * serve`), the bare metal API and two conductors (http RPC) run for N minutes under a mixed
 * load, and one conductor is restarted (SIGTERM, then started again) every
 * `--restart-every` seconds (default 180), alternating. It prints, every `--report-every`
 * seconds (default 60) and at the end, the resident memory (RSS) of every process and the
 * request counts; at the end, every failed request with the restart that explains it (or
 * "unexplained"). Exit 1 when a request failed that no restart explains.
 *
 * Load (each worker sleeps `--pause-ms`, default 20, between requests, so the soak measures
 * steady state rather than saturation on a shared machine):
 * - Placement: 20 providers with inventory; consumers take one VCPU on one of them (PUT
 *   /allocations/{consumer}) and give it back (DELETE); usages read (GET …/usages).
 * - Bare metal: 24 nodes, each walked round manage → provide → deploy (active) → tear down
 *   (available) by its own worker, the state read between steps: every step an RPC call to
 *   the node's conductor.
 * Databases: SQLite files in a temporary directory (`--backend postgresql` or `mysql`: scratch
 * databases on the machine's servers, BATON_TEST_POSTGRES_URL / BATON_TEST_MYSQL_URL).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from '../src/cli/main.ts';
import type { Backend } from '../src/db/index.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import {
  type BatonProcess,
  baremetalApi,
  baremetalConductor,
  placementServe,
  stopBaton,
} from '../test/faults/support/baton-process.ts';
import { IRONIC_HEADERS, writeBaremetalConfig } from '../test/faults/support/deployment.ts';
import { emptyCounts, type LoadCounts, runWorkers, send } from '../test/faults/support/load.ts';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    'restart-every': { type: 'string', default: '180' },
    'report-every': { type: 'string', default: '60' },
    'pause-ms': { type: 'string', default: '20' },
    backend: { type: 'string', default: 'sqlite' },
  },
});
const MINUTES = Number(options.minutes);
const RESTART_EVERY_MS = Number(options['restart-every']) * 1000;
const REPORT_EVERY_MS = Number(options['report-every']) * 1000;
const PAUSE_MS = Number(options['pause-ms']);
const BACKEND = options.backend as Backend;
/** After a conductor is serving again, how long failures still count as its restart's. */
const RESTART_SHADOW_MS = 5_000;
const PLACEMENT_HEADERS = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (start: number, at = Date.now()) => `${((at - start) / 1000).toFixed(0)} s`;

interface Restart {
  readonly host: string;
  readonly stoppingAt: number;
  servingAt: number;
}

async function dbUpgrade(service: string, url: string): Promise<void> {
  let text = '';
  const status = await runCli(['db', 'upgrade', '--service', service, '--db', url], {
    out: (line) => {
      text += `${line}\n`;
    },
    err: (chunk) => {
      text += chunk;
    },
  });
  if (status !== 0) throw new Error(`db upgrade --service ${service}: ${text}`);
}

async function scratch(dir: string, name: string) {
  if (BACKEND === 'sqlite')
    return { url: `sqlite:${join(dir, `${name}.sqlite`)}`, drop: async () => {} };
  return createScratchDatabase(BACKEND);
}

/** Placement: providers with inventory, allocations taken and given back. */
async function placementWorkload(url: string, counts: LoadCounts) {
  const providers: string[] = [];
  for (let i = 0; i < 20; i++) {
    const uuid = randomUUID();
    const headers = PLACEMENT_HEADERS;
    await send(counts, {
      label: 'POST /resource_providers',
      method: 'POST',
      url: `${url}/resource_providers`,
      headers,
      body: { name: `soak-${i}-${uuid}`, uuid },
    });
    await send(counts, {
      label: 'PUT /resource_providers/{uuid}/inventories',
      method: 'PUT',
      url: `${url}/resource_providers/${uuid}/inventories`,
      headers,
      body: { resource_provider_generation: 0, inventories: { VCPU: { total: 100_000 } } },
    });
    providers.push(uuid);
  }
  const project = randomUUID();
  const user = randomUUID();
  return async (worker: number, iteration: number) => {
    const provider = providers[(worker * 7 + iteration) % providers.length] as string;
    const consumer = `${'0'.repeat(8)}-0000-4000-8000-${String(worker).padStart(4, '0')}${String(Math.floor(iteration / 3)).padStart(8, '0')}`;
    const step = iteration % 3;
    if (step === 0) {
      await send(counts, {
        label: 'PUT /allocations/{consumer}',
        method: 'PUT',
        url: `${url}/allocations/${consumer}`,
        headers: PLACEMENT_HEADERS,
        body: {
          allocations: { [provider]: { resources: { VCPU: 1 } } },
          project_id: project,
          user_id: user,
          consumer_generation: null,
          consumer_type: 'INSTANCE',
        },
      });
    } else if (step === 1) {
      await send(counts, {
        label: 'GET /resource_providers/{uuid}/usages',
        method: 'GET',
        url: `${url}/resource_providers/${provider}/usages`,
        headers: PLACEMENT_HEADERS,
      });
    } else {
      await send(counts, {
        label: 'DELETE /allocations/{consumer}',
        method: 'DELETE',
        url: `${url}/allocations/${consumer}`,
        headers: PLACEMENT_HEADERS,
      });
    }
    await sleep(PAUSE_MS);
  };
}

/** The next target for a node in each state its walk passes through. */
const NEXT_TARGET: Record<string, string> = {
  enroll: 'manage',
  manageable: 'provide',
  available: 'active',
  active: 'deleted',
  'deploy failed': 'deleted',
  'clean failed': 'manage',
};

/** Bare metal: each worker walks its own nodes round their life cycle. */
async function baremetalWorkload(url: string, counts: LoadCounts, workers: number) {
  const nodes: string[] = [];
  for (let i = 0; i < 24; i++) {
    const answer = await send(counts, {
      label: 'POST /v1/nodes',
      method: 'POST',
      url: `${url}/v1/nodes`,
      headers: IRONIC_HEADERS,
      body: { driver: 'fake-hardware', name: `soak-${i}` },
    });
    if (answer?.status !== 201)
      throw new Error(`cannot create the soak's nodes: ${answer?.status} ${answer?.body}`);
    nodes.push(String((JSON.parse(answer.body) as { uuid: string }).uuid));
  }
  return async (worker: number, iteration: number) => {
    const mine = nodes.filter((_, i) => i % workers === worker);
    const uuid = mine[iteration % mine.length] as string;
    const shown = await send(counts, {
      label: 'GET /v1/nodes/{uuid}',
      method: 'GET',
      url: `${url}/v1/nodes/${uuid}`,
      headers: IRONIC_HEADERS,
    });
    if (shown?.status === 200) {
      const node = JSON.parse(shown.body) as {
        provision_state: string;
        reservation: string | null;
        target_provision_state: string | null;
      };
      const target = NEXT_TARGET[node.provision_state];
      if (
        target !== undefined &&
        node.reservation === null &&
        node.target_provision_state === null
      ) {
        await send(counts, {
          label: `PUT /v1/nodes/{uuid}/states/provision ${target}`,
          method: 'PUT',
          url: `${url}/v1/nodes/${uuid}/states/provision`,
          headers: IRONIC_HEADERS,
          body: { target },
        });
      }
    }
    await sleep(PAUSE_MS);
  };
}

function explain(at: number, restarts: readonly Restart[]): string {
  const restart = restarts.find(
    (r) =>
      at >= r.stoppingAt - 1_000 &&
      at <= (r.servingAt || Number.POSITIVE_INFINITY) + RESTART_SHADOW_MS,
  );
  return restart ? `restart of ${restart.host}` : 'unexplained';
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-soak-'));
  const placementDb = await scratch(dir, 'placement');
  const baremetalDb = await scratch(dir, 'baremetal');
  const processes: BatonProcess[] = [];
  const conductors = new Map<string, BatonProcess>();
  const restarts: Restart[] = [];
  const memory = new Map<string, number[]>();
  try {
    await dbUpgrade('placement', placementDb.url);
    await dbUpgrade('baremetal', baremetalDb.url);
    const placement = await placementServe(placementDb.url);
    processes.push(placement.process);
    const configs = new Map<string, string>();
    for (const host of ['soak-1', 'soak-2']) {
      const config = writeBaremetalConfig({ dir, host, db: baremetalDb.url, heartbeatTimeout: 10 });
      configs.set(host, config);
      conductors.set(host, await baremetalConductor(host, config));
    }
    const api = await baremetalApi(
      writeBaremetalConfig({ dir, host: 'soak-api', db: baremetalDb.url }),
    );
    processes.push(api.process);

    const start = Date.now();
    const end = start + MINUTES * 60_000;
    const placementCounts = emptyCounts();
    const baremetalCounts = emptyCounts();
    const placementStep = await placementWorkload(placement.url, placementCounts);
    const baremetalStep = await baremetalWorkload(api.url, baremetalCounts, 3);
    console.log(
      `soak: ${MINUTES} min on ${BACKEND}, a conductor restarted every ${RESTART_EVERY_MS / 1000} s, ` +
        `memory every ${REPORT_EVERY_MS / 1000} s (RSS, MiB)`,
    );
    const report = (final = false) => {
      const rss: Record<string, number | undefined> = {
        placement: placement.process.rssKiB(),
        'baremetal-api': api.process.rssKiB(),
        ...Object.fromEntries([...conductors].map(([host, p]) => [host, p.rssKiB()])),
        'soak driver': Math.round(process.memoryUsage().rss / 1024),
      };
      for (const [name, kib] of Object.entries(rss)) {
        if (kib !== undefined) memory.set(name, [...(memory.get(name) ?? []), kib]);
      }
      const mib = (kib: number | undefined) => (kib === undefined ? '-' : (kib / 1024).toFixed(0));
      console.log(
        `${final ? 'end' : since(start).padStart(6)}: ` +
          Object.entries(rss)
            .map(([name, kib]) => `${name} ${mib(kib)}`)
            .join(', ') +
          ` | placement ${placementCounts.sent} sent ${placementCounts.serverErrors.length + placementCounts.noAnswer.length + placementCounts.hangs.length} failed,` +
          ` baremetal ${baremetalCounts.sent} sent ${baremetalCounts.serverErrors.length + baremetalCounts.noAnswer.length + baremetalCounts.hangs.length} failed, ${restarts.length} restarts`,
      );
    };
    report();
    const stop = () => Date.now() >= end;
    const restarter = (async () => {
      let next = 0;
      while (!stop()) {
        await sleep(Math.min(RESTART_EVERY_MS, Math.max(0, end - Date.now())));
        if (stop()) break;
        const host = (next++ % 2 === 0 ? 'soak-1' : 'soak-2') as string;
        const restart: Restart = { host, stoppingAt: Date.now(), servingAt: 0 };
        restarts.push(restart);
        await stopBaton(conductors.get(host) as BatonProcess, 30_000);
        conductors.set(host, await baremetalConductor(host, configs.get(host) as string));
        restart.servingAt = Date.now();
        console.log(
          `${since(start).padStart(6)}: restarted ${host} (${restart.servingAt - restart.stoppingAt} ms from SIGTERM to serving)`,
        );
      }
    })();
    const reporter = (async () => {
      while (!stop()) {
        await sleep(Math.min(REPORT_EVERY_MS, Math.max(0, end - Date.now())));
        if (!stop()) report();
      }
    })();
    await Promise.all([
      runWorkers(2, placementStep, stop),
      runWorkers(3, baremetalStep, stop),
      restarter,
      reporter,
    ]);
    report(true);

    console.log(
      'memory (RSS MiB: first, min, max, last; conductors restart, so theirs is per process life):',
    );
    for (const [name, samples] of memory) {
      const mib = (kib: number) => (kib / 1024).toFixed(0);
      console.log(
        `  ${name}: ${mib(samples[0] ?? 0)}, ${mib(Math.min(...samples))}, ${mib(Math.max(...samples))}, ${mib(samples.at(-1) ?? 0)}`,
      );
    }
    let unexplained = 0;
    for (const [service, counts] of [
      ['placement', placementCounts],
      ['baremetal', baremetalCounts],
    ] as const) {
      const failures = [
        ...counts.serverErrors.map((a) => ({
          at: a.at,
          what: `${a.label} → ${a.status} ${a.body.slice(0, 160)}`,
        })),
        ...counts.noAnswer.map((a) => ({ at: a.at, what: `${a.label} → no answer (${a.reason})` })),
        ...counts.hangs.map((a) => ({ at: a.at, what: `${a.label} → no answer within 20 s` })),
      ].sort((a, b) => a.at - b.at);
      const fourXx =
        Object.entries(counts.clientErrors)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ') || 'none';
      console.log(
        `${service}: ${counts.sent} sent, ${counts.ok} ok, 4xx ${fourXx}, ${failures.length} failed`,
      );
      for (const [what, body] of Object.entries(counts.clientErrorSamples)) {
        console.log(`  4xx e.g. ${what}: ${body}`);
      }
      for (const failure of failures) {
        const why = explain(failure.at, restarts);
        if (why === 'unexplained') unexplained += 1;
        console.log(`  at ${since(start, failure.at)}: ${failure.what} [${why}]`);
      }
    }
    console.log(
      `${restarts.length} conductor restarts; ${unexplained} failed requests no restart explains`,
    );
    return unexplained === 0 ? 0 : 1;
  } finally {
    for (const p of [...processes, ...conductors.values()].reverse()) await stopBaton(p, 10_000);
    await placementDb.drop();
    await baremetalDb.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
