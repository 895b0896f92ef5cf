/**
 * A ramdisk deploy of an ipmi node with pxe boot, on the real Ironic 21.4.4 (Debian's, with
 * OSSA-2025-001) and on Baton side by side, each with its own ipmi_sim BMC, TFTP root and
 * allowed image directory, configured alike. The same requests must give: the same `node
 * validate` refusals (no port, then no kernel and ramdisk); after `active`, the same requests
 * on the BMC, the same files under the TFTP root (names, link targets, the configuration's
 * text with the node's UUID in place of each one's, the images' content, the common
 * `grub/grub.cfg`); after undeploy, the same BMC requests and the same files left; a kernel outside `file_url_allowed_paths`, the same
 * `deploy failed` and last_error.
 *
 * Without the real service or ipmi_sim it is skipped with the reason; under CI=true it fails.
 */
import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ListeningApi } from '../../../src/baremetal/api/server.ts';
import { IPMI_DEFAULTS } from '../../../src/baremetal/drivers/ipmitool/ipmi-settings.ts';
import { PXE_DEFAULTS } from '../../../src/baremetal/drivers/pxe/pxe-settings.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { IPMI_PXE_ENABLED, IPMI_PXE_ENABLED_OPTIONS } from '../drivers/support/ipmi-pxe-enabled.ts';
import { type IpmiSim, requireIpmiSim, startIpmiSim } from '../drivers/support/ipmi-sim.ts';
import { type BatonApi, listenOnLoopback, startBatonApi } from './support/baton-api.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing() ?? requireIpmiSim();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

const VERSION = { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': 'application/json' };
const MAC = '52:54:00:12:34:56';

/** One service under test: its API, its BMC, its directories. */
interface Side {
  readonly name: string;
  readonly url: string;
  readonly bmc: IpmiSim;
  readonly tftpRoot: string;
  readonly images: string;
}

function scratch(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `pxe-${name}-`));
  const tftpRoot = join(dir, 'tftpboot');
  const images = join(dir, 'images');
  mkdirSync(tftpRoot);
  mkdirSync(images);
  writeFileSync(join(images, 'vmlinuz'), 'a kernel');
  writeFileSync(join(images, 'initrd'), 'a ramdisk');
  return { dir, tftpRoot, images };
}

async function call(side: Side, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${side.url}${path}`, {
    method,
    headers: VERSION,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** The node once it is in one of `states`, or failed. */
async function reaches(side: Side, uuid: string, states: readonly string[]) {
  let body: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) {
    ({ body } = await call(side, 'GET', `/v1/nodes/${uuid}`));
    const state = String(body.provision_state);
    if ((states.includes(state) || state.endsWith('failed')) && body.target_power_state === null) {
      return body;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { provision_state, target_provision_state, power_state, target_power_state, last_error } =
    body;
  throw new Error(
    `${side.name}: ${uuid} did not reach ${states.join(' or ')}: ${JSON.stringify({ provision_state, target_provision_state, power_state, target_power_state, last_error })}`,
  );
}

/**
 * The real conductor appends the API request's id to the kernel command line
 * (`ipa-global-request-id=req-…`, for the agent's logs); Baton's conductor is not given it.
 */
const withoutRequestId = (text: string) =>
  text.replace(/ ipa-global-request-id=req-[0-9a-f-]+/g, '');

/** Every entry under the root: path (the node's UUID as <uuid>) → link target or content. */
async function tree(root: string, uuid: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const key = relative(root, path).replaceAll(uuid, '<uuid>');
      const info = await lstat(path);
      if (info.isSymbolicLink()) out[key] = `-> ${readlinkSync(path).replaceAll(uuid, '<uuid>')}`;
      else if (info.isDirectory()) {
        out[`${key}/`] = '';
        await walk(path);
      } else out[key] = withoutRequestId(readFileSync(path, 'utf8').replaceAll(uuid, '<uuid>'));
    }
  };
  await walk(root);
  return out;
}

describe('a ramdisk deploy with pxe boot against the real Ironic 21.4.4', { skip: missing }, () => {
  const dirs = [scratch('real'), scratch('baton')];
  const [realDir, batonDir] = dirs as [ReturnType<typeof scratch>, ReturnType<typeof scratch>];
  let real: RealIronic;
  let baton: BatonApi;
  let listening: ListeningApi;
  let sides: Side[] = [];
  const uuids = new Map<string, string>();

  before(async () => {
    const bmcs = [await startIpmiSim(), await startIpmiSim()];
    [real, baton] = await Promise.all([
      startRealIronic({
        automatedClean: false,
        config: {
          DEFAULT: IPMI_PXE_ENABLED_OPTIONS,
          conductor: { file_url_allowed_paths: realDir.images },
          pxe: {
            tftp_root: realDir.tftpRoot,
            // Its image cache, outside the root (Baton keeps none).
            tftp_master_path: join(realDir.dir, 'master_images'),
            tftp_server: '192.0.2.1',
          },
          ipmi: { min_command_interval: '1', command_retry_timeout: '10' },
        },
      }),
      startBatonApi({
        conductor: {
          ...IPMI_PXE_ENABLED,
          automatedClean: false,
          ipmi: { ...IPMI_DEFAULTS, minCommandInterval: 1, commandRetryTimeout: 10 },
          pxe: {
            ...PXE_DEFAULTS,
            tftpRoot: batonDir.tftpRoot,
            tftpServer: '192.0.2.1',
            fileUrlAllowedPaths: [batonDir.images],
          },
        },
      }),
    ]);
    listening = await listenOnLoopback(baton, '1.82');
    sides = [
      { name: 'real', url: real.url, bmc: bmcs[0] as IpmiSim, ...realDir },
      { name: 'baton', url: listening.url, bmc: bmcs[1] as IpmiSim, ...batonDir },
    ];
  });

  after(async () => {
    await listening?.drain();
    await Promise.all([real?.stop(), baton?.close(), ...sides.map((side) => side.bmc.stop())]);
    for (const dir of dirs) rmSync(dir.dir, { recursive: true, force: true });
  });

  /** Runs `step` on each side and returns what each gave, real first. */
  const both = async <T>(step: (side: Side, uuid: string) => Promise<T>): Promise<[T, T]> => {
    const out: T[] = [];
    for (const side of sides) out.push(await step(side, uuids.get(side.name) ?? ''));
    return out as [T, T];
  };

  it('refuses to validate boot and deploy without a port, then without kernel and ramdisk', async () => {
    const [realAnswers, batonAnswers] = await both(async (side) => {
      const created = await call(side, 'POST', '/v1/nodes', {
        driver: 'ipmi',
        driver_info: side.bmc.driverInfo(),
      });
      assert.equal(created.status, 201, `${side.name}: ${JSON.stringify(created.body)}`);
      const uuid = created.body.uuid as string;
      uuids.set(side.name, uuid);
      const pick = (body: Record<string, { result: boolean; reason?: string }>) =>
        JSON.stringify({ boot: body.boot, deploy: body.deploy }).replaceAll(uuid, '<uuid>');
      const noPort = pick((await call(side, 'GET', `/v1/nodes/${uuid}/validate`)).body);
      await call(side, 'POST', '/v1/ports', { node_uuid: uuid, address: MAC });
      const noImages = pick((await call(side, 'GET', `/v1/nodes/${uuid}/validate`)).body);
      return [noPort, noImages];
    });
    assert.deepEqual(batonAnswers, realAnswers);
    assert.match(realAnswers[0] ?? '', /does not have any port associated with it/);
  });

  it('deploys: the same BMC requests, the same files under the TFTP root', async () => {
    const [realResult, batonResult] = await both(async (side, uuid) => {
      await call(side, 'PATCH', `/v1/nodes/${uuid}`, [
        { op: 'add', path: '/instance_info/kernel', value: `file://${side.images}/vmlinuz` },
        { op: 'add', path: '/instance_info/ramdisk', value: `file://${side.images}/initrd` },
      ]);
      await call(side, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'manage' });
      await reaches(side, uuid, ['manageable']);
      await call(side, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'provide' });
      await reaches(side, uuid, ['available']);
      const from = side.bmc.requests().length;
      const asked = await call(side, 'PUT', `/v1/nodes/${uuid}/states/provision`, {
        target: 'active',
      });
      assert.equal(asked.status, 202, `${side.name}: ${JSON.stringify(asked.body)}`);
      const node = await reaches(side, uuid, ['active']);
      return {
        state: [node.provision_state, node.power_state, node.last_error],
        bmc: side.bmc.requests().slice(from),
        files: await tree(side.tftpRoot, uuid),
      };
    });
    assert.deepEqual(realResult.state, ['active', 'power on', null]);
    assert.deepEqual(batonResult, realResult);
  });

  it('undeploys: the same BMC requests, only the common files left under the TFTP root', async () => {
    const [realResult, batonResult] = await both(async (side, uuid) => {
      const from = side.bmc.requests().length;
      await call(side, 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: 'deleted' });
      const node = await reaches(side, uuid, ['available']);
      return {
        state: [node.provision_state, node.power_state, node.last_error],
        bmc: side.bmc.requests().slice(from),
        files: await tree(side.tftpRoot, uuid),
      };
    });
    assert.deepEqual(realResult.state, ['available', 'power off', null]);
    assert.deepEqual(batonResult, realResult);
  });

  it('fails the deploy of a kernel outside file_url_allowed_paths with the same last_error', async () => {
    const [realResult, batonResult] = await both(async (side, uuid) => {
      await call(side, 'PATCH', `/v1/nodes/${uuid}`, [
        // Undeploy emptied instance_info.
        { op: 'add', path: '/instance_info/kernel', value: 'file:///etc/hostname' },
        { op: 'add', path: '/instance_info/ramdisk', value: `file://${side.images}/initrd` },
      ]);
      const asked = await call(side, 'PUT', `/v1/nodes/${uuid}/states/provision`, {
        target: 'active',
      });
      assert.equal(asked.status, 202, `${side.name}: ${JSON.stringify(asked.body)}`);
      const node = await reaches(side, uuid, ['active']);
      return [node.provision_state, node.last_error];
    });
    assert.equal(realResult[0], 'deploy failed');
    assert.deepEqual(batonResult, realResult);
  });
});
