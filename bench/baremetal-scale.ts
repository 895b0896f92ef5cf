/**
 * The bare metal service with thousands of nodes (issue 26 §2), Baton's against the real
 * Ironic 21.4.4 in the same run, each on a scratch PostgreSQL database with three conductors
 * and the same options (bench/support/served-baremetal.ts, plus SCALE_CONFIG below). For each:
 *
 * - list pages: `GET /v1/nodes?detail=true&limit=100` paged through all NODES nodes (the
 *   `next` link), p50/p99 per page over at least MIN_PAGES pages; the same with each filter
 *   (`provision_state=active`, `conductor_group=rack-a`, `owner=project-3`, `shard=shard-2`);
 * - the API process's CPU per page (Linux /proc; the real API's one worker), less moved by
 *   the machine's load than the wall times;
 * - SQL statements per page, per filter: the API process reaches PostgreSQL through a proxy
 *   that reads the wire protocol (bench/support/pg-statement-counter.ts), statements and
 *   transaction control (BEGIN/COMMIT) apart; the conductors connect directly;
 * - the power state sync: each conductor's last sweep (nodes it synced, seconds), from the
 *   real one's statsd timer ConductorManager._sync_power_states and gauge PowerSyncNodesCount
 *   (`[metrics] backend = statsd`, each conductor to a UDP port of its own here), from Baton's log line
 *   "Power state sync: N nodes mapped here, S s". Fake power reads the recorded state, so a
 *   sweep corrects nothing: it is the cost of reading every node under a shared lock. Every
 *   node is covered when the conductors' counts add up to NODES and each sweep took less
 *   than the interval (SYNC_S);
 * - a conductor SIGKILLed: seconds until no node's `conductor` names it (every node listed,
 *   each with a live conductor; `[conductor] heartbeat_timeout` = 10 s), then a PATCH of
 *   TAKEOVER_CHECKS of its former nodes must succeed (the API reached a live conductor);
 * - resident memory (VmRSS, with children) of the API and each conductor after the paging
 *   and the sweeps.
 *
 * The nodes are written into each service's database directly (one node created through the
 * API, then copied NODES times by SQL with only the fields below changed), the same way for
 * both: creating 10,000 through the real API takes 10 to 20 minutes. Distribution by index i:
 * provision_state active (i % 10 in 7..8, power on), manageable (9, power off), available
 * (the rest, power off); owner project-(i % 10); shard shard-(i % 4); conductor_group rack-a
 * (all, as the conductors: a node of a group no conductor serves would not be synced).
 *
 * NODES=10000 REAL=0 npm run bench:baremetal-scale
 */
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import { realIronicMissing } from '../test/support/real-ironic.ts';
import { IronicHttp } from './support/ironic-http.ts';
import { StatementCountingProxy } from './support/pg-statement-counter.ts';
import { percentile } from './support/placement-http.ts';
import { CpuMeter, loadAverage } from './support/process-cpu.ts';
import { children, treeRssMiB } from './support/process-memory.ts';
import {
  BENCH_SETTINGS,
  type ServedBaremetal,
  type ServedOptions,
  startBatonBaremetal,
  startRealBaremetal,
} from './support/served-baremetal.ts';

const NODES = Number(process.env.NODES ?? 1000);
const MIN_PAGES = Number(process.env.MIN_PAGES ?? 100);
const SYNC_S = Number(process.env.SYNC_S ?? 30);
const TAKEOVER_CHECKS = Number(process.env.TAKEOVER_CHECKS ?? 20);
const COMPARE_REAL = process.env.REAL !== '0';
const BATON = process.env.BATON !== '0';
const CONDUCTORS = 3;
const VERSION = '1.82';
const GROUP = 'rack-a';
const FILTERS = [
  ['all', ''],
  ['provision_state', '&provision_state=active'],
  ['conductor_group', `&conductor_group=${GROUP}`],
  ['owner', '&owner=project-3'],
  ['shard', '&shard=shard-2'],
] as const;

const SCALE_CONFIG = {
  conductor: {
    conductor_group: GROUP,
    heartbeat_timeout: '10',
    sync_power_state_interval: String(SYNC_S),
  },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Latencies {
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
}

function summarize(times: number[]): Latencies {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), samples: times.length };
}

/** One conductor's last complete power state sync. */
interface Sweep {
  readonly nodes: number;
  readonly seconds: number;
}

interface Figures {
  /** Per filter: page times, nodes matched, and the API's statements per page. */
  readonly pages: Record<
    string,
    Latencies & {
      readonly nodes: number;
      readonly apiCpuMsPerPage: number;
      readonly statementsPerPage: number;
      readonly transactionControlPerPage: number;
    }
  >;
  readonly sweeps: Record<string, Sweep>;
  readonly takeover: {
    readonly seconds: number;
    readonly orphaned: number;
    readonly checked: number;
  };
  readonly rssMiB: Record<string, number | undefined>;
}

/** Copies the template node `count` times with the distribution the header describes. */
async function insertNodes(client: pg.Client, template: string, count: number): Promise<void> {
  const columns = (
    await client.query(
      `select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = 'nodes' order by ordinal_position`,
    )
  ).rows.map((row) => row.column_name as string);
  const set: Record<string, string> = {
    uuid: 'gen_random_uuid()::text',
    name: `'node-' || i`,
    provision_state: `case when i % 10 in (7, 8) then 'active' when i % 10 = 9 then 'manageable' else 'available' end`,
    power_state: `case when i % 10 in (7, 8) then 'power on' else 'power off' end`,
    owner: `'project-' || (i % 10)`,
    shard: `'shard-' || (i % 4)`,
    conductor_group: `'${GROUP}'`,
    created_at: 'now()',
  };
  const copied = columns.filter((column) => column !== 'id');
  const values = copied.map((column) => set[column] ?? `t.${column}`);
  const quoted = copied.map((column) => `"${column}"`);
  const batch = 2000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await client.query(
      `insert into nodes (${quoted.join(', ')})
       select ${values.join(', ')} from nodes t cross join generate_series(${from}, ${to}) i
        where t.uuid = $1`,
      [template],
    );
  }
  await client.query('delete from nodes where uuid = $1', [template]);
  await client.query('analyze nodes');
}

/** A `next` link's path and query (the links name the service's public address). */
function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

/**
 * Pages through the nodes matching `query`, over and over until MIN_PAGES pages are timed.
 * The next page is asked with the same filters and the last node as `marker`, as the
 * `baremetal` client does: the real 21.4.4's `next` link (and so Baton's) keeps only
 * `detail`, `maintenance`, `associated`, `retired` and the sort, not `provision_state`,
 * `owner`, `shard` or `conductor_group`.
 */
async function pageThrough(http: IronicHttp, query: string) {
  const times: number[] = [];
  let nodes = 0;
  const first = `/v1/nodes?detail=true&limit=100${query}`;
  for (let pass = 0; times.length < MIN_PAGES; pass++) {
    let path: string | undefined = first;
    let seen = 0;
    while (path !== undefined) {
      const started = performance.now();
      const reply = await http.expect([200], 'GET', path);
      times.push(performance.now() - started);
      const body = reply.body as { nodes: { uuid: string }[]; next?: string };
      seen += body.nodes.length;
      const last = body.nodes[body.nodes.length - 1];
      path =
        body.next === undefined || last === undefined ? undefined : `${first}&marker=${last.uuid}`;
    }
    if (pass === 0) nodes = seen;
    if (seen === 0) break;
  }
  return { ...summarize(times), nodes };
}

/**
 * Sweeps reported in the real conductors' statsd packets, the last per conductor. Ironic
 * names its metric loggers before reading its options (`prepend_host` has no effect) and
 * sends each packet from a new socket, so each conductor is given a port of its own.
 */
class StatsdSweeps {
  readonly #sockets = new Map<string, Socket>();
  readonly #count = new Map<string, number>();
  readonly sweeps = new Map<string, Sweep>();
  /** Each conductor's port, by index. */
  readonly ports: number[] = [];

  async listen(conductors: number): Promise<void> {
    for (let i = 0; i < conductors; i++) {
      const socket = createSocket('udp4');
      const conductor = `conductor ${i + 1}`;
      socket.on('message', (message) => this.#read(conductor, message.toString()));
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      this.#sockets.set(conductor, socket);
      this.ports.push(socket.address().port);
    }
  }

  #read(conductor: string, text: string): void {
    for (const line of text.split('\n')) {
      // [ironic.conductor.manager.]ConductorManager.<metric>:<value>|<type>
      const match = /(?:^|\.)ConductorManager\.(\w+):([\d.]+)\|/.exec(line);
      if (match === null) continue;
      const [, metric, value] = match as unknown as [string, string, string];
      if (metric === 'PowerSyncNodesCount') this.#count.set(conductor, Number(value));
      if (metric === '_sync_power_states') {
        this.sweeps.set(conductor, {
          nodes: this.#count.get(conductor) ?? 0,
          seconds: Number(value) / 1000,
        });
      }
    }
  }

  close(): void {
    for (const socket of this.#sockets.values()) socket.close();
  }
}

/** The last sweep each Baton conductor logged. */
function loggedSweeps(served: ServedBaremetal): Map<string, Sweep> {
  const sweeps = new Map<string, Sweep>();
  for (const [i, conductor] of served.conductors().entries()) {
    let text = '';
    try {
      text = readFileSync(join(served.logDir, `conductor-${i + 1}.log`), 'utf8');
    } catch {
      continue;
    }
    const all = [...text.matchAll(/Power state sync: (\d+) nodes mapped here, ([\d.]+) s/g)];
    const last = all[all.length - 1];
    if (last !== undefined) {
      sweeps.set(conductor.host, { nodes: Number(last[1]), seconds: Number(last[2]) });
    }
  }
  return sweeps;
}

/**
 * Each node's uuid and conductor, all pages. Detail pages: the real 21.4.4 answers
 * `fields=uuid,conductor` with a 500 ("type object 'Node' has no attribute 'conductor'").
 */
async function conductorsOfNodes(http: IronicHttp): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  let path: string | undefined = '/v1/nodes?detail=true&limit=1000';
  while (path !== undefined) {
    const body = (await http.expect([200], 'GET', path)).body as {
      nodes: { uuid: string; conductor: string | null }[];
      next?: string;
    };
    for (const node of body.nodes) found.set(node.uuid, node.conductor);
    path = body.next === undefined ? undefined : pathOf(body.next);
  }
  return found;
}

/**
 * SIGKILLs the first conductor. The API maps nodes to conductors by its hash ring, so all of
 * the dead one's nodes move at once: TAKEOVER_CHECKS of them are shown every 0.5 s until
 * each names a live conductor (the time reported); then every node is listed, and those
 * naming the dead conductor or none count as lost; then each checked node is patched
 * (through a live conductor).
 */
async function takeover(http: IronicHttp, served: ServedBaremetal) {
  const dead = served.conductors()[0]?.host as string;
  const before = await conductorsOfNodes(http);
  const its = [...before].filter(([, host]) => host === dead).map(([uuid]) => uuid);
  const checks = its.slice(0, TAKEOVER_CHECKS);
  await served.killConductor(0);
  const killed = performance.now();
  const limitMs = 300_000;
  for (;;) {
    let moved = 0;
    for (const uuid of checks) {
      const node = (await http.expect([200], 'GET', `/v1/nodes/${uuid}`)).body as {
        conductor: string | null;
      };
      if (node.conductor && node.conductor !== dead) moved++;
    }
    if (moved === checks.length || performance.now() - killed > limitMs) break;
    await sleep(500);
  }
  const seconds = (performance.now() - killed) / 1000;
  const after = await conductorsOfNodes(http);
  const orphaned =
    NODES - after.size + [...after.values()].filter((host) => host === dead || !host).length;
  let checked = 0;
  for (const uuid of checks) {
    await http.expect([200], 'PATCH', `/v1/nodes/${uuid}`, [
      { op: 'add', path: '/extra/taken_over', value: 'yes' },
    ]);
    checked++;
  }
  console.log(
    `  ${served.name}: conductor ${dead} (${its.length} nodes) killed; its nodes served by the others after ${seconds.toFixed(1)} s; ${orphaned} nodes then without a live conductor or missing; ${checked} of its nodes patched`,
  );
  return { seconds, orphaned, checked };
}

async function run(
  start: (databaseUrl?: string, options?: ServedOptions) => Promise<ServedBaremetal>,
  real: boolean,
): Promise<Figures> {
  const scratch = await createScratchDatabase('postgresql');
  const statsd = new StatsdSweeps();
  await statsd.listen(CONDUCTORS);
  const metrics = (index: number) => ({
    metrics: { backend: 'statsd' },
    metrics_statsd: { statsd_host: '127.0.0.1', statsd_port: String(statsd.ports[index]) },
  });
  // The API reaches the database through a proxy that counts its statements.
  const target = new URL(scratch.url);
  const proxy = new StatementCountingProxy({
    host: target.hostname,
    port: Number(target.port || 5432),
  });
  await proxy.listen();
  // STATEMENTS=1 prints what the API sends (the first 160 characters of each).
  if (process.env.STATEMENTS === '1') {
    proxy.onStatement = (text) =>
      console.log(`    sql: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  const served = await start(scratch.url, {
    apiDatabaseUrl: proxy.through(scratch.url),
    conductors: CONDUCTORS,
    config: SCALE_CONFIG,
    ...(real ? { realConductorConfig: metrics } : {}),
  });
  const http = new IronicHttp(served.url, { version: VERSION, sockets: 4 });
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  try {
    const template = await http.expect([201], 'POST', '/v1/nodes', {
      driver: 'fake-hardware',
      conductor_group: GROUP,
      extra: { rack: 'a' },
      properties: { cpus: 8, memory_mb: 65536, local_gb: 400 },
    });
    const inserting = performance.now();
    await insertNodes(client, template.body.uuid as string, NODES);
    const inserted = performance.now();
    console.log(
      `  ${served.name}: ${NODES} nodes written in ${((inserted - inserting) / 1000).toFixed(1)} s`,
    );

    const pages: Figures['pages'] = {};
    // The API's CPU per page: wall times move with the machine's load, CPU time less. The
    // real API's worker is the launcher's child (one worker).
    const apiPid =
      served.apiPid === undefined ? undefined : (children(served.apiPid)[0] ?? served.apiPid);
    for (const [label, query] of FILTERS) {
      const before = { ...proxy.counts };
      const cpu = new CpuMeter(apiPid, undefined);
      cpu.start();
      const p = await pageThrough(http, query);
      const apiMs = cpu.stop().serverMs;
      pages[label] = {
        ...p,
        apiCpuMsPerPage: apiMs === undefined ? Number.NaN : apiMs / p.samples,
        statementsPerPage: (proxy.counts.statements - before.statements) / p.samples,
        transactionControlPerPage:
          (proxy.counts.transactionControl - before.transactionControl) / p.samples,
      };
      console.log(
        `  ${served.name}: pages ${label.padEnd(16)} ${p.nodes} nodes, p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms (${p.samples} pages), per page: API CPU ${pages[label].apiCpuMsPerPage.toFixed(2)} ms, ${pages[label].statementsPerPage.toFixed(2)} statements + ${pages[label].transactionControlPerPage.toFixed(2)} BEGIN/COMMIT`,
      );
    }

    // Sweeps that began after the nodes were written: wait for those covering every node.
    const sweepsOf = () => (real ? new Map(statsd.sweeps) : loggedSweeps(served));
    const sweepDeadline = Date.now() + (3 * SYNC_S + 120) * 1000;
    statsd.sweeps.clear();
    let sweeps = sweepsOf();
    while (Date.now() < sweepDeadline) {
      sweeps = sweepsOf();
      const total = [...sweeps.values()].reduce((sum, s) => sum + s.nodes, 0);
      if (sweeps.size === CONDUCTORS && total === NODES) break;
      await sleep(1000);
    }
    for (const [host, sweep] of sweeps) {
      console.log(
        `  ${served.name}: power sync on ${host}: ${sweep.nodes} nodes in ${sweep.seconds.toFixed(2)} s`,
      );
    }

    const rssMiB: Record<string, number | undefined> = {
      api: served.apiPid === undefined ? undefined : treeRssMiB(served.apiPid),
    };
    for (const [i, conductor] of served.conductors().entries()) {
      rssMiB[`conductor ${i + 1}`] =
        conductor.pid === undefined ? undefined : treeRssMiB(conductor.pid);
    }
    console.log(
      `  ${served.name}: RSS ${Object.entries(rssMiB)
        .map(([name, mib]) => `${name} ${mib === undefined ? '?' : mib.toFixed(0)} MiB`)
        .join(', ')}`,
    );

    const taken = await takeover(http, served);
    return {
      pages,
      sweeps: Object.fromEntries(sweeps),
      takeover: taken,
      rssMiB,
    };
  } finally {
    http.close();
    statsd.close();
    await client.end();
    await served.stop();
    proxy.close();
    await scratch.drop();
  }
}

function table(results: [string, Figures][]): void {
  const header = ['figure', ...results.map(([name]) => name)];
  const rows: string[][] = [];
  for (const [label] of FILTERS) {
    rows.push([
      `page ${label} p50/p99 ms`,
      ...results.map(([, f]) => {
        const p = f.pages[label];
        return p === undefined ? '-' : `${p.p50.toFixed(1)} / ${p.p99.toFixed(1)}`;
      }),
    ]);
  }
  for (const [label] of FILTERS) {
    rows.push([
      `page ${label} API CPU ms`,
      ...results.map(([, f]) => f.pages[label]?.apiCpuMsPerPage.toFixed(2) ?? '-'),
    ]);
  }
  for (const [label] of FILTERS) {
    rows.push([
      `page ${label} SQL statements + tx control`,
      ...results.map(([, f]) => {
        const p = f.pages[label];
        return p === undefined
          ? '-'
          : `${p.statementsPerPage.toFixed(1)} + ${p.transactionControlPerPage.toFixed(1)}`;
      }),
    ]);
  }
  rows.push([
    `power sync, slowest sweep s`,
    ...results.map(([, f]) => {
      const sweeps = Object.values(f.sweeps);
      const nodes = sweeps.reduce((sum, s) => sum + s.nodes, 0);
      if (sweeps.length === 0) return 'none seen';
      const slowest = Math.max(...sweeps.map((s) => s.seconds));
      return `${slowest.toFixed(2)} (${nodes} nodes${nodes === NODES && slowest < SYNC_S ? ', all in time' : ', NOT all'})`;
    }),
  ]);
  rows.push([
    'conductor killed: s until served',
    ...results.map(([, f]) => `${f.takeover.seconds.toFixed(1)} (${f.takeover.orphaned} lost)`),
  ]);
  for (const process of ['api', 'conductor 1', 'conductor 2', 'conductor 3']) {
    rows.push([
      `RSS ${process} MiB`,
      ...results.map(([, f]) => {
        const mib = f.rssMiB[process];
        return mib === undefined ? '?' : mib.toFixed(0);
      }),
    ]);
  }
  const widths = header.map((_, c) =>
    Math.max(...[header, ...rows].map((row) => (row[c] ?? '').length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, c) =>
        c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number),
      )
      .join('  ');
  console.log(`\n${line(header)}`);
  for (const row of rows) console.log(line(row));
}

const settings = Object.entries({ ...BENCH_SETTINGS, ...SCALE_CONFIG })
  .flatMap(([section, options]) =>
    Object.entries(options).map(([key, value]) => `[${section}] ${key}=${value}`),
  )
  .join(', ');
console.log(
  `baremetal scale bench: ${NODES} nodes written by SQL, microversion ${VERSION}, pages of 100, at least ${MIN_PAGES} pages per figure, load ${loadAverage()}`,
);
console.log(
  `both services: PostgreSQL (scratch database each), ${CONDUCTORS} conductors, RPC over HTTP, fake-hardware, noauth, ${settings}`,
);
const results: [string, Figures][] = [];
if (BATON) results.push(['baton', await run(startBatonBaremetal, false)]);
const missing = realIronicMissing();
if (!COMPARE_REAL || missing) {
  console.log(`the real Ironic is not measured${missing ? `: ${missing}` : ' (REAL=0)'}`);
} else {
  results.push(['real 21.4.4', await run(startRealBaremetal, true)]);
}
table(results);
console.log(`load average at the end: ${loadAverage()}`);
