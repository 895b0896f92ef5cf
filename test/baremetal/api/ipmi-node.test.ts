/**
 * A node with `--driver ipmi` through the API and an in-process conductor on SQLite, its BMC
 * an `ipmi_sim` (test/baremetal/drivers/support/ipmi-sim.ts): created with ipmitool power and
 * management and the password masked; validated without contacting the BMC; powered on and
 * off (the simulated chassis changes, not only the node); its boot device set and shown;
 * managed and provided; `node validate` and a deploy refuse it without a port, then without
 * instance_info kernel and ramdisk, then (were it to be cleaned) without the deploy ramdisk, in
 * the real words; deployed with pxe boot and ramdisk deploy: the images fetched from an allowed
 * file:// path into `<tftp_root>/<uuid>/`, the GRUB configuration booting `boot_ramdisk`, the
 * per-MAC links, and the BMC sent power off, boot device pxe, power on; undeployed: powered off,
 * every PXE file gone; a kernel outside `file_url_allowed_paths` fails the deploy step with the
 * real message. A BMC with the wrong password leaves the real last_error (Ironic 21.4.4's words,
 * as the reference session recorded them) and no target power state behind, and cannot be
 * managed;
 * the good one is managed, its vendor read from `mc info`. No conductor log line holds the
 * password.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IPMI_DEFAULTS } from '../../../src/baremetal/drivers/ipmitool/ipmi-settings.ts';
import { PXE_DEFAULTS } from '../../../src/baremetal/drivers/pxe/pxe-settings.ts';
import { IPMI_PXE_ENABLED } from '../drivers/support/ipmi-pxe-enabled.ts';
import {
  IPMI_PASSWORD,
  type IpmiSim,
  requireIpmiSim,
  startIpmiSim,
} from '../drivers/support/ipmi-sim.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

const V = { 'X-OpenStack-Ironic-API-Version': '1.82' };
const MAC = '52:54:00:12:34:56';
const scratch = mkdtempSync(join(tmpdir(), 'baton-pxe-'));
const tftpRoot = join(scratch, 'tftpboot');
/** The one allowed file:// path: the instance's kernel and ramdisk. */
const images = join(scratch, 'images');
mkdirSync(images);
writeFileSync(join(images, 'vmlinuz'), 'a kernel');
writeFileSync(join(images, 'initrd'), 'a ramdisk');
const skip = requireIpmiSim();
const logLines: string[] = [];

describe('a node with the ipmi hardware type', { skip }, () => {
  let bmc: IpmiSim;
  let api: BatonApi;

  const call = async (method: string, url: string, payload?: unknown) => {
    const answer = await api.request({
      method: method as 'GET',
      url,
      headers: V,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: answer.statusCode, body: answer.body === '' ? undefined : answer.json() };
  };

  /** The node once the conductor has finished its power action. */
  const settled = async (ident: string) => {
    for (let i = 0; i < 400; i++) {
      const { body } = await call('GET', `/v1/nodes/${ident}`);
      if (body.target_power_state === null) return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${ident} kept a target power state`);
  };

  before(async () => {
    bmc = await startIpmiSim();
    api = await startBatonApi({
      conductor: {
        ...IPMI_PXE_ENABLED,
        automatedClean: false,
        powerStateChangeTimeout: 10,
        ipmi: { ...IPMI_DEFAULTS, commandRetryTimeout: 3, minCommandInterval: 0 },
        pxe: { ...PXE_DEFAULTS, tftpRoot, fileUrlAllowedPaths: [images] },
      },
      conductorLog: {
        debug: (line) => logLines.push(line),
        info: (line) => logLines.push(line),
        warn: (line) => logLines.push(line),
        error: (line) => logLines.push(line),
      },
    });
  });
  after(async () => {
    await api?.close();
    await bmc?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is created with ipmitool power and management, the password masked', async () => {
    const created = await call('POST', '/v1/nodes', {
      driver: 'ipmi',
      name: 'node1',
      driver_info: bmc.driverInfo(),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.power_interface, 'ipmitool');
    assert.equal(created.body.management_interface, 'ipmitool');
    assert.equal(created.body.console_interface, 'no-console');
    assert.equal(created.body.vendor_interface, 'no-vendor');
    assert.equal(created.body.driver_info.ipmi_password, '******');
    assert.equal(created.body.driver_info.ipmi_port, bmc.port);
    assert.equal(created.body.power_state, null);
    const validated = await call('GET', '/v1/nodes/node1/validate');
    assert.deepEqual(validated.body.power, { result: true });
    assert.deepEqual(validated.body.management, { result: true });
    assert.deepEqual(bmc.requests(), [], 'validate contacts no BMC');
    const driver = await call('GET', '/v1/drivers/ipmi');
    assert.equal(driver.body.default_power_interface, 'ipmitool');
    assert.deepEqual(driver.body.enabled_management_interfaces, ['ipmitool']);
    const properties = await call('GET', '/v1/drivers/ipmi/properties');
    assert.equal(properties.body.ipmi_address, 'IP address or hostname of the node. Required.');
  });

  it('is powered on and off through the conductor, and the chassis follows', async () => {
    const on = await call('PUT', '/v1/nodes/node1/states/power', { target: 'power on' });
    assert.equal(on.status, 202, JSON.stringify(on.body));
    let node = await settled('node1');
    assert.equal(node.power_state, 'power on');
    assert.equal(node.last_error, null);
    assert.equal(bmc.poweredOn(), true);
    const off = await call('PUT', '/v1/nodes/node1/states/power', { target: 'power off' });
    assert.equal(off.status, 202);
    node = await settled('node1');
    assert.equal(node.power_state, 'power off');
    assert.equal(bmc.poweredOn(), false);
    await call('PUT', '/v1/nodes/node1/states/power', { target: 'rebooting' });
    node = await settled('node1');
    assert.equal(node.power_state, 'power on');
    assert.deepEqual(bmc.requests(), ['power 1', 'power 0', 'power 1']);
  });

  it('has its boot device set and shown', async () => {
    const set = await call('PUT', '/v1/nodes/node1/management/boot_device', { boot_device: 'pxe' });
    assert.equal(set.status, 204, JSON.stringify(set.body));
    assert.equal(bmc.bootDevice(), 'pxe');
    const shown = await call('GET', '/v1/nodes/node1/management/boot_device');
    assert.deepEqual(shown.body, { boot_device: 'pxe', persistent: false });
    const supported = await call('GET', '/v1/nodes/node1/management/boot_device/supported');
    assert.deepEqual(supported.body.supported_boot_devices, [
      'pxe',
      'disk',
      'cdrom',
      'bios',
      'safe',
    ]);
  });

  it('has an NMI sent as `power diag` (which ipmi_sim refuses: the real 500)', async () => {
    const nmi = await call('PUT', '/v1/nodes/node1/management/inject_nmi', {});
    assert.equal(nmi.status, 500, JSON.stringify(nmi.body));
    assert.equal(JSON.parse(nmi.body.error_message).faultstring, 'IPMI call failed: power diag.');
  });

  /** The node once the conductor has left `verifying`. */
  const verified = async (ident: string) => {
    for (let i = 0; i < 400; i++) {
      const { body } = await call('GET', `/v1/nodes/${ident}`);
      if (body.provision_state !== 'verifying') return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${ident} stayed verifying`);
  };

  it('is managed: its power read from the BMC, its vendor from `mc info`', async () => {
    const manage = await call('PUT', '/v1/nodes/node1/states/provision', { target: 'manage' });
    assert.equal(manage.status, 202, JSON.stringify(manage.body));
    const node = await verified('node1');
    assert.equal(node.provision_state, 'manageable');
    assert.equal(node.power_state, 'power on');
    assert.equal(node.last_error, null);
    assert.equal(node.properties.vendor, 'montavista software, inc.');
  });

  /** The node once it is in `state` (or a failed state). */
  const reaches = async (ident: string, state: string) => {
    for (let i = 0; i < 600; i++) {
      const { body } = await call('GET', `/v1/nodes/${ident}`);
      if (body.provision_state === state || body.provision_state.endsWith('failed')) return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${ident} did not reach ${state}`);
  };

  /** What ipmi_sim's chassis received since `from`. */
  const sentSince = (from: number) => bmc.requests().slice(from);

  it('is provided; boot and deploy refuse a node without ports, then without kernel and ramdisk', async () => {
    await call('PUT', '/v1/nodes/node1/states/provision', { target: 'provide' });
    const node = await reaches('node1', 'available');
    assert.equal(node.provision_state, 'available', node.last_error);
    assert.equal(node.boot_interface, 'pxe');
    assert.equal(node.deploy_interface, 'ramdisk');
    const noPorts = `Node ${node.uuid} does not have any port associated with it`;
    let validated = await call('GET', '/v1/nodes/node1/validate');
    assert.deepEqual(validated.body.boot, { result: false, reason: noPorts });
    assert.deepEqual(validated.body.deploy, { result: false, reason: noPorts });
    const refused = await call('PUT', '/v1/nodes/node1/states/provision', { target: 'active' });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(
      JSON.parse(refused.body.error_message).faultstring,
      `Failed to validate deploy or power info for node ${node.uuid}: ${noPorts}`,
    );
    const port = await call('POST', '/v1/ports', { node_uuid: node.uuid, address: MAC });
    assert.equal(port.status, 201, JSON.stringify(port.body));
    validated = await call('GET', '/v1/nodes/node1/validate');
    assert.deepEqual(validated.body.boot, {
      result: false,
      reason: `Cannot validate image information for node ${node.uuid} because one or more parameters are missing from its instance_info and insufficient information is present to boot from a remote volume. Missing are: ['kernel', 'ramdisk']`,
    });
    // A node that will be cleaned needs the agent's deploy ramdisk, which cleaning boots.
    await call('PATCH', '/v1/nodes/node1', [
      { op: 'add', path: '/automated_clean', value: true },
      { op: 'add', path: '/instance_info/kernel', value: `file://${images}/vmlinuz` },
      { op: 'add', path: '/instance_info/ramdisk', value: `file://${images}/initrd` },
    ]);
    validated = await call('GET', '/v1/nodes/node1/validate');
    assert.deepEqual(validated.body.boot, {
      result: false,
      reason:
        "Cannot validate PXE bootloader. Some parameters were missing in node's driver_info and configuration. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
    });
    await call('PATCH', '/v1/nodes/node1', [
      { op: 'replace', path: '/automated_clean', value: null },
    ]);
    validated = await call('GET', '/v1/nodes/node1/validate');
    assert.deepEqual(validated.body.boot, { result: true });
    assert.deepEqual(validated.body.deploy, { result: true });
  });

  it('is deployed: its kernel and ramdisk under the TFTP root, PXE set on the BMC, powered on', async () => {
    const from = bmc.requests().length;
    await call('PUT', '/v1/nodes/node1/states/provision', { target: 'active' });
    const node = await reaches('node1', 'active');
    assert.equal(node.provision_state, 'active', node.last_error);
    assert.equal(node.power_state, 'power on');
    assert.deepEqual(sentSince(from), ['power 0', 'boot pxe', 'power 1']);
    assert.equal(bmc.bootDevice(), 'pxe');
    const config = readFileSync(join(tftpRoot, node.uuid, 'config'), 'utf8');
    assert.match(config, /^set default=boot_ramdisk$/m);
    assert.ok(
      config.includes(
        `    linuxefi ${node.uuid}/kernel root=/dev/ram0 text nofb nomodeset vga=normal \n    initrdefi ${node.uuid}/ramdisk\n`,
      ),
      config,
    );
    assert.equal(readFileSync(join(tftpRoot, node.uuid, 'kernel'), 'utf8'), 'a kernel');
    assert.equal(readFileSync(join(tftpRoot, node.uuid, 'ramdisk'), 'utf8'), 'a ramdisk');
    const dashed = MAC.replaceAll(':', '-');
    assert.equal(
      readlinkSync(join(tftpRoot, 'pxelinux.cfg', `01-${dashed}`)),
      `../${node.uuid}/config`,
    );
    assert.equal(readlinkSync(join(tftpRoot, `grub.cfg-01-${dashed}`)), `${node.uuid}/config`);
    assert.equal(readlinkSync(join(tftpRoot, `${MAC}.conf`)), `${node.uuid}/config`);
    // GRUB reads it first: it has GRUB read the file the booting MAC links to.
    assert.match(
      readFileSync(join(tftpRoot, 'grub', 'grub.cfg'), 'utf8'),
      /^configfile \/\$net_default_mac\.conf$/m,
    );
  });

  it('is undeployed: powered off, its PXE files removed, available again (no cleaning)', async () => {
    const from = bmc.requests().length;
    await call('PUT', '/v1/nodes/node1/states/provision', { target: 'deleted' });
    const node = await reaches('node1', 'available');
    assert.equal(node.provision_state, 'available', node.last_error);
    assert.equal(node.power_state, 'power off');
    assert.deepEqual(sentSince(from), ['power 0']);
    // What is not the node's stays: GRUB's first file and the links' directory.
    assert.deepEqual(readdirSync(tftpRoot).sort(), ['grub', 'pxelinux.cfg']);
    assert.deepEqual(readdirSync(join(tftpRoot, 'pxelinux.cfg')), []);
  });

  it('fails its deploy step on a file:// image outside file_url_allowed_paths, in the real words', async () => {
    await call('PATCH', '/v1/nodes/node1', [
      { op: 'add', path: '/instance_info/kernel', value: 'file:///etc/hostname' },
      { op: 'add', path: '/instance_info/ramdisk', value: `file://${images}/initrd` },
    ]);
    await call('PUT', '/v1/nodes/node1/states/provision', { target: 'active' });
    const node = await reaches('node1', 'active');
    assert.equal(node.provision_state, 'deploy failed');
    assert.equal(
      node.last_error,
      'Deploy step deploy.deploy failed: Validation of image href file:///etc/hostname failed, reason: Security: Path /etc/hostname is not allowed for image source file URLs.',
    );
    assert.equal(existsSync(join(tftpRoot, node.uuid, 'kernel')), false);
    await call('PUT', '/v1/nodes/node1/states/provision', { target: 'deleted' });
    const back = await reaches('node1', 'available');
    assert.equal(back.provision_state, 'available', back.last_error);
    assert.equal(existsSync(join(tftpRoot, node.uuid)), false);
  });

  it('behind a wrong password: the real last_error, no target power state left', async () => {
    const created = await call('POST', '/v1/nodes', {
      driver: 'ipmi',
      name: 'node2',
      driver_info: bmc.driverInfo({ ipmi_password: 'WRONG' }),
    });
    assert.equal(created.status, 201);
    const validated = await call('GET', '/v1/nodes/node2/validate');
    assert.deepEqual(validated.body.power, { result: true });
    const on = await call('PUT', '/v1/nodes/node2/states/power', { target: 'power on' });
    assert.equal(on.status, 202);
    const node = await settled('node2');
    assert.equal(
      node.last_error,
      "Failed to change power state to 'power on': IPMI call failed: power status.",
    );
    assert.equal(node.power_state, null);
    assert.equal(node.target_power_state, null);
    await call('PUT', '/v1/nodes/node2/states/provision', { target: 'manage' });
    const after = await verified('node2');
    assert.equal(after.provision_state, 'enroll');
    assert.equal(
      after.last_error,
      `Failed to get power state for node ${created.body.uuid}. Error: IPMI call failed: power status.`,
    );
  });

  it('without ipmi_address: power and management fail validation in the real words', async () => {
    const created = await call('POST', '/v1/nodes', { driver: 'ipmi', name: 'node3' });
    assert.equal(created.status, 201);
    const validated = await call('GET', '/v1/nodes/node3/validate');
    const reason =
      "Missing the following IPMI credentials in node's driver_info: ['ipmi_address'].";
    assert.deepEqual(validated.body.power, { result: false, reason });
    assert.deepEqual(validated.body.management, { result: false, reason });
    assert.deepEqual(validated.body.console, {
      result: false,
      reason: 'Driver ipmi does not support console (disabled or not implemented).',
    });
  });

  it('logs no password', () => {
    assert.ok(logLines.some((line) => line.startsWith('Execute: ipmitool ')));
    for (const line of logLines) {
      assert.ok(!line.includes(IPMI_PASSWORD), line);
      assert.ok(!line.includes('WRONG'), line);
    }
  });
});
