/**
 * The `ipmi` hardware type at scale (issue 25 §3), Baton's bare metal service against the real
 * Ironic 21.4.4 in the same run: BMCS simulated BMCs (`ipmi_sim`, one process each, loopback
 * ports; test/baremetal/drivers/support/ipmi-sim.ts), one node per BMC, two conductors, the
 * same options for both (bench/support/served-baremetal.ts). The same BMCs serve the real
 * service first, then Baton's. For each it prints:
 *
 * - enroll: BMCS nodes created, each with a port and a ramdisk image (`file://` kernel and
 *   ramdisk under `[conductor] file_url_allowed_paths`), nodes per second;
 * - manage: every node moved to `manageable` at once (each reads its BMC's power state),
 *   seconds until all are there;
 * - power sync: every chassis powered on behind the service's back; the periodic sync
 *   (`sync_power_state_interval` = SYNC_S) must notice and power each off again. Seconds from
 *   the change until the last chassis is off, the spread between the first and the last
 *   correction (one sweep), and chassis left on;
 * - provisioning: provide, deploy (`pxe` boot, `ramdisk` deploy: PXE files written, the BMC
 *   told to boot from the network and powered on) and undeploy of every node at once; seconds
 *   and nodes per minute for each, and nodes that failed or did not arrive within LIMIT_S.
 *
 * BMCS=200 SYNC_S=20 LIMIT_S=600 REAL=0 npm run bench:baremetal-ipmi
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type IpmiSim, startIpmiSim } from '../test/baremetal/drivers/support/ipmi-sim.ts';
import { realIronicMissing } from '../test/support/real-ironic.ts';
import { IronicHttp } from './support/ironic-http.ts';
import { loadAverage } from './support/process-cpu.ts';
import {
  type ServedBaremetal,
  type ServedOptions,
  startBatonBaremetal,
  startRealBaremetal,
} from './support/served-baremetal.ts';

const BMCS = Number(process.env.BMCS ?? 200);
const SYNC_S = Number(process.env.SYNC_S ?? 20);
const LIMIT_S = Number(process.env.LIMIT_S ?? 600);
const COMPARE_REAL = process.env.REAL !== '0';
const CLIENTS = 16;
const VERSION = '1.80';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items` with at most `limit` at once. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Where the PXE files, image caches and the ramdisk image of one service's run live. */
function scratchDirs(name: string) {
  const root = mkdtempSync(join(tmpdir(), `bench-ipmi-${name}-`));
  const dirs = Object.fromEntries(
    ['tftp', 'tftp-master', 'images', 'instance-master', 'http', 'files'].map((d) => {
      mkdirSync(join(root, d));
      return [d, join(root, d)];
    }),
  ) as Record<string, string>;
  writeFileSync(join(dirs.files as string, 'vmlinuz'), 'a kernel\n');
  writeFileSync(join(dirs.files as string, 'initrd'), 'a ramdisk\n');
  return { root, dirs };
}

function serviceOptions(dirs: Record<string, string>): ServedOptions {
  return {
    config: {
      DEFAULT: {
        enabled_hardware_types: 'ipmi',
        enabled_power_interfaces: 'ipmitool',
        enabled_management_interfaces: 'ipmitool',
        enabled_boot_interfaces: 'pxe',
        enabled_deploy_interfaces: 'ramdisk',
      },
      conductor: {
        sync_power_state_interval: String(SYNC_S),
        file_url_allowed_paths: dirs.files as string,
        deploy_callback_timeout: String(LIMIT_S),
      },
      pxe: {
        tftp_root: dirs.tftp as string,
        tftp_master_path: dirs['tftp-master'] as string,
        images_path: dirs.images as string,
        instance_master_path: dirs['instance-master'] as string,
      },
      deploy: { http_root: dirs.http as string, http_url: 'http://127.0.0.1:9' },
    },
  };
}

interface Figures {
  readonly name: string;
  enrollPerSecond?: number;
  manageSeconds?: number;
  syncSeconds?: number;
  syncSpreadSeconds?: number;
  leftOn?: number;
  phases: { name: string; seconds: number; perMinute: number; failed: number; late: number }[];
  serverErrors?: number;
}

/** Waits until every node shows `state` (or fails); counts the failed and the late. */
async function waitAll(
  client: IronicHttp,
  uuids: readonly string[],
  state: string,
  failed: string,
) {
  const pending = new Set(uuids);
  let failures = 0;
  const deadline = Date.now() + LIMIT_S * 1000;
  while (pending.size > 0 && Date.now() < deadline) {
    await eachLimited([...pending], CLIENTS, async (uuid) => {
      const node = await client.expect([200], 'GET', `/v1/nodes/${uuid}`);
      const body = node.body as { provision_state: string; target_provision_state: unknown };
      if (body.provision_state === state && body.target_provision_state === null) {
        pending.delete(uuid);
      } else if (body.provision_state === failed) {
        console.log(
          `    failed: ${uuid} (${JSON.stringify((body as { last_error?: unknown }).last_error)})`,
        );
        failures++;
        pending.delete(uuid);
      }
    });
    if (pending.size > 0) await sleep(500);
  }
  for (const uuid of pending) {
    const node = await client.expect([200], 'GET', `/v1/nodes/${uuid}`);
    const body = node.body as { provision_state: string; last_error: unknown };
    console.log(
      `    late: ${uuid} in ${body.provision_state} (${JSON.stringify(body.last_error)})`,
    );
  }
  return { failed: failures, late: pending.size };
}

/**
 * Asks every node for `target`; a node locked by the conductor (409) or a service at its
 * concurrency limit is asked again, as a client retries; one in another state is left out
 * (400). Resolves with the nodes asked.
 */
async function askAll(client: IronicHttp, uuids: readonly string[], target: string) {
  const asked: string[] = [];
  await eachLimited(uuids, CLIENTS, async (uuid) => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const reply = await client.call('PUT', `/v1/nodes/${uuid}/states/provision`, { target });
      if (reply.status === 202) asked.push(uuid);
      // The real service's answer to its own concurrency limit (max_concurrent_deploy,
      // max_concurrent_clean) is a 500 "Please ... try again": a client waits and asks again.
      const busy =
        reply.status === 409 ||
        (reply.status === 500 && JSON.stringify(reply.body).includes('concurrent action limit'));
      if (!busy) {
        if (reply.status >= 500) client.serverErrors++;
        return;
      }
      if (reply.status === 500) client.serverErrors++;
      await sleep(1000);
    }
  });
  return asked;
}

async function phase(
  figures: Figures,
  client: IronicHttp,
  uuids: readonly string[],
  name: string,
  target: string,
  state: string,
  failed: string,
) {
  const start = performance.now();
  const asked = await askAll(client, uuids, target);
  const { failed: failures, late } = await waitAll(client, asked, state, failed);
  const seconds = (performance.now() - start) / 1000;
  figures.phases.push({
    name,
    seconds,
    perMinute: ((asked.length - failures - late) * 60) / seconds,
    failed: failures + uuids.length - asked.length,
    late,
  });
  console.log(
    `  ${figures.name}: ${name} ${seconds.toFixed(1)} s, ${failures} failed, ${late} late`,
  );
}

async function run(
  name: string,
  start: (databaseUrl?: string, options?: ServedOptions) => Promise<ServedBaremetal>,
  bmcs: readonly IpmiSim[],
): Promise<Figures> {
  const { root, dirs } = scratchDirs(name.replace(/\W+/g, '-'));
  for (const bmc of bmcs) bmc.setPower(false);
  const served = await start(undefined, serviceOptions(dirs));
  const client = new IronicHttp(served.url, { version: VERSION, sockets: CLIENTS });
  const figures: Figures = { name, phases: [] };
  try {
    const uuids: string[] = [];
    let start = performance.now();
    await eachLimited(
      bmcs.map((bmc, i) => [bmc, i] as const),
      CLIENTS,
      async ([bmc, i]) => {
        const node = await client.expect([201], 'POST', '/v1/nodes', {
          name: `bmc-${i}`,
          driver: 'ipmi',
          driver_info: bmc.driverInfo(),
          instance_info: {
            kernel: `file://${dirs.files}/vmlinuz`,
            ramdisk: `file://${dirs.files}/initrd`,
          },
        });
        const uuid = (node.body as { uuid: string }).uuid;
        const mac = `52:54:00:${[i >> 8, i & 255, 1].map((b) => b.toString(16).padStart(2, '0')).join(':')}`;
        await client.expect([201], 'POST', '/v1/ports', { node_uuid: uuid, address: mac });
        uuids[i] = uuid;
      },
    );
    figures.enrollPerSecond = (bmcs.length * 1000) / (performance.now() - start);
    console.log(`  ${name}: enrolled ${bmcs.length} at ${figures.enrollPerSecond.toFixed(1)}/s`);

    start = performance.now();
    const toManage = await askAll(client, uuids, 'manage');
    const managed = await waitAll(client, toManage, 'manageable', 'enroll');
    figures.manageSeconds = (performance.now() - start) / 1000;
    console.log(
      `  ${name}: manage ${figures.manageSeconds.toFixed(1)} s (${managed.failed} failed, ${managed.late} late)`,
    );

    // Behind the service's back: every chassis on. The sync (force_power_state_during_sync)
    // must switch each off again within an interval and a sweep.
    const changed = Date.now();
    for (const bmc of bmcs) bmc.setPower(true);
    const syncDeadline = changed + (3 * SYNC_S + 120) * 1000;
    while (bmcs.some((bmc) => bmc.poweredOn()) && Date.now() < syncDeadline) await sleep(250);
    const corrections = bmcs
      .filter((bmc) => !bmc.poweredOn())
      .map((bmc) => statSync(join(bmc.dir, 'chassis', 'power')).mtimeMs);
    figures.leftOn = bmcs.filter((bmc) => bmc.poweredOn()).length;
    if (corrections.length > 0) {
      figures.syncSeconds = (Math.max(...corrections) - changed) / 1000;
      figures.syncSpreadSeconds = (Math.max(...corrections) - Math.min(...corrections)) / 1000;
    }
    console.log(
      `  ${name}: power sync corrected ${corrections.length}, last after ${figures.syncSeconds?.toFixed(1)} s, ${figures.leftOn} left on`,
    );

    await phase(figures, client, uuids, 'provide', 'provide', 'available', 'clean failed');
    await phase(figures, client, uuids, 'deploy', 'active', 'active', 'deploy failed');
    await phase(figures, client, uuids, 'undeploy', 'deleted', 'available', 'error');
    figures.serverErrors = client.serverErrors;
    return figures;
  } finally {
    client.close();
    await served.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `ipmi at scale: ${BMCS} ipmi_sim BMCs, 2 conductors, sync every ${SYNC_S} s, load ${loadAverage()}`,
  );
  const bmcs: IpmiSim[] = [];
  try {
    // Started in small batches: each start waits for an ipmitool answer.
    for (let i = 0; i < BMCS; i += 10) {
      bmcs.push(
        ...(await Promise.all(Array.from({ length: Math.min(10, BMCS - i) }, startIpmiSim))),
      );
    }
    const results: Figures[] = [];
    const missing = realIronicMissing();
    if (COMPARE_REAL && missing === undefined) {
      results.push(await run('real 21.4.4', startRealBaremetal, bmcs));
    } else if (COMPARE_REAL) {
      console.log(`the real Ironic cannot run here: ${missing}`);
    }
    results.push(await run('baton', startBatonBaremetal, bmcs));
    const rows: string[][] = [
      ['figure', ...results.map((r) => r.name)],
      [
        'enroll (node + port), nodes/s',
        ...results.map((r) => r.enrollPerSecond?.toFixed(1) ?? '-'),
      ],
      ['manage all, s', ...results.map((r) => r.manageSeconds?.toFixed(1) ?? '-')],
      [
        'power sync: last chassis corrected after, s',
        ...results.map((r) => r.syncSeconds?.toFixed(1) ?? '-'),
      ],
      [
        'power sync: first to last correction, s',
        ...results.map((r) => r.syncSpreadSeconds?.toFixed(1) ?? '-'),
      ],
      ['power sync: chassis left on', ...results.map((r) => String(r.leftOn ?? '-'))],
    ];
    for (const name of ['provide', 'deploy', 'undeploy']) {
      const of = (r: Figures) => r.phases.find((p) => p.name === name);
      rows.push([
        `${name}: s (nodes/min)`,
        ...results.map((r) => {
          const p = of(r);
          return p === undefined ? '-' : `${p.seconds.toFixed(1)} (${p.perMinute.toFixed(0)}/min)`;
        }),
      ]);
      rows.push([
        `${name}: failed / late`,
        ...results.map((r) => {
          const p = of(r);
          return p === undefined ? '-' : `${p.failed} / ${p.late}`;
        }),
      ]);
    }
    rows.push(['5xx answers retried', ...results.map((r) => String(r.serverErrors ?? '-'))]);
    const widths =
      rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length))) ?? [];
    for (const row of rows)
      console.log(row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  '));
  } finally {
    await Promise.all(bmcs.map((bmc) => bmc.stop()));
  }
}

await main();
