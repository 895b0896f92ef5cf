/**
 * The pxe boot interface's files and boot device calls on their own, in a temporary TFTP root,
 * for what the ipmi tests do not reach: the deploy ramdisk's configuration (PXELINUX for a
 * legacy BIOS node, booting `deploy`, its images fetched, PXE set once), an InfiniBand port's
 * `20-` link, a node not deployed by ramdisk booting from disk with its files removed, and
 * `force_persistent_boot_device`.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FAKE_NO_DELAYS } from '../../../../src/baremetal/drivers/fake/fake-delays.ts';
import type { NodeDriver } from '../../../../src/baremetal/drivers/node-driver.ts';
import { pxeBoot } from '../../../../src/baremetal/drivers/pxe/pxe-boot.ts';
import { PXE_DEFAULTS } from '../../../../src/baremetal/drivers/pxe/pxe-settings.ts';
import { Port } from '../../../../src/baremetal/objects/index.ts';
import { ipmiRamdiskNode } from './support/ramdisk-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'baton-pxe-boot-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const tftpRoot = join(dir, 'tftpboot');
writeFileSync(join(dir, 'deploy.kernel'), 'deploy kernel');
writeFileSync(join(dir, 'deploy.initrd'), 'deploy ramdisk');
const boot = pxeBoot.create({
  fake: FAKE_NO_DELAYS,
  pxe: { ...PXE_DEFAULTS, tftpRoot, fileUrlAllowedPaths: [dir], automatedClean: true },
});

/** A task whose management records the boot devices set. */
function taskFor(fields: Record<string, unknown>, ports: { address: string; extra?: object }[]) {
  const devices: [string, boolean][] = [];
  const management = {
    validate: async () => {},
    setBootDevice: async (_task: unknown, device: string, persistent: boolean) => {
      devices.push([device, persistent]);
    },
  };
  const task = {
    node: ipmiRamdiskNode({ provision_state: 'deploying', ...fields }),
    driver: { management } as unknown as NodeDriver,
    ports: async () => ports.map((port) => Port.create({ extra: {}, ...port } as never)),
    powerAction: async () => {},
  };
  return { task, devices, uuid: String(task.node.get('uuid')) };
}

describe('the pxe boot interface', () => {
  it('boots the deploy ramdisk: PXELINUX for a BIOS node, its images, PXE once', async () => {
    const { task, devices, uuid } = taskFor(
      {
        deploy_interface: 'fake',
        properties: { capabilities: 'boot_mode:bios' },
        driver_info: {
          deploy_kernel: `file://${dir}/deploy.kernel`,
          deploy_ramdisk: `file://${dir}/deploy.initrd`,
        },
      },
      [
        { address: '52:54:00:00:00:01' },
        { address: '52:54:00:00:00:02', extra: { 'client-id': 'ff:00' } },
      ],
    );
    await boot.prepareRamdisk(task, { 'ipa-debug': 1 });
    const config = readFileSync(join(tftpRoot, uuid, 'config'), 'utf8');
    assert.match(config, /^default deploy$/m);
    assert.ok(
      config.includes(
        `label deploy\nkernel ${uuid}/deploy_kernel\nappend initrd=${uuid}/deploy_ramdisk selinux=0 troubleshoot=0 text nofb nomodeset vga=normal ipa-debug=1\n`,
      ),
      config,
    );
    assert.equal(readFileSync(join(tftpRoot, uuid, 'deploy_kernel'), 'utf8'), 'deploy kernel');
    assert.equal(
      readlinkSync(join(tftpRoot, 'pxelinux.cfg', '01-52-54-00-00-00-01')),
      `../${uuid}/config`,
    );
    assert.equal(
      readlinkSync(join(tftpRoot, 'pxelinux.cfg', '20-52-54-00-00-00-02')),
      `../${uuid}/config`,
    );
    assert.deepEqual(devices, [['pxe', false]]);
    await boot.cleanUpRamdisk(task);
    assert.equal(existsSync(join(tftpRoot, uuid)), false);
    assert.equal(existsSync(join(tftpRoot, 'pxelinux.cfg', '01-52-54-00-00-00-01')), false);
  });

  it('has a node not deployed by ramdisk boot from disk, its PXE files gone', async () => {
    const { task, devices, uuid } = taskFor(
      {
        deploy_interface: 'fake',
        driver_info: {
          deploy_kernel: `file://${dir}/deploy.kernel`,
          deploy_ramdisk: `file://${dir}/deploy.initrd`,
        },
      },
      [{ address: '52:54:00:00:00:03' }],
    );
    await boot.prepareRamdisk(task, {});
    await boot.prepareInstance(task);
    assert.equal(existsSync(join(tftpRoot, uuid)), false);
    assert.equal(existsSync(join(tftpRoot, `grub.cfg-01-52-54-00-00-00-03`)), false);
    assert.deepEqual(devices, [
      ['pxe', false],
      ['disk', true],
    ]);
  });

  it('follows force_persistent_boot_device', async () => {
    const { task, devices } = taskFor(
      {
        automated_clean: false,
        driver_info: { force_persistent_boot_device: 'Never' },
        instance_info: {
          kernel: `file://${dir}/deploy.kernel`,
          ramdisk: `file://${dir}/deploy.initrd`,
        },
      },
      [{ address: '52:54:00:00:00:04' }],
    );
    await boot.prepareInstance(task);
    assert.deepEqual(devices, [['pxe', false]]);
    await boot.cleanUpInstance(task);
  });
});
