/**
 * The PXE layout and text without I/O: the node's file and images under its directory, the
 * links each MAC gets (PXELINUX `01-`, `20-` for an InfiniBand port, GRUB's two) pointing at the
 * file relatively, the PXELINUX (BIOS) and GRUB (UEFI) texts with the paths as the TFTP server
 * serves them, and the switch of the default entry; the texts are what the installed Ironic's
 * templates render from the same options.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  configFilePath,
  defaultBootLabel,
  imagePath,
  linkTarget,
  macLinkPaths,
  renderPxeConfig,
  servedPath,
  switchBootLabel,
} from '../../../../src/baremetal/drivers/pxe/pxe-config.ts';
import { ironicPythonMissing, runIronicPython } from '../../support/ironic-python.ts';

const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';
const OPTIONS = {
  akiPath: `${UUID}/kernel`,
  ariPath: `${UUID}/ramdisk`,
  pxeAppendParams: 'nofb nomodeset vga=normal',
  tftpServer: '192.0.2.1',
  ramdiskOpts: 'console=ttyS0',
};

describe('the PXE layout', () => {
  it('puts the file and images in the node directory, served relative to the root', () => {
    assert.equal(configFilePath('/tftpboot', UUID), `/tftpboot/${UUID}/config`);
    assert.equal(servedPath('/tftpboot', imagePath('/tftpboot', UUID, 'kernel')), `${UUID}/kernel`);
  });

  it('links each MAC for PXELINUX and GRUB, relative to the link', () => {
    const links = macLinkPaths('/tftpboot', 'pxelinux.cfg', '52:54:00:AB:cd:01');
    assert.deepEqual(links, [
      '/tftpboot/pxelinux.cfg/01-52-54-00-ab-cd-01',
      '/tftpboot/grub.cfg-01-52-54-00-ab-cd-01',
      '/tftpboot/52:54:00:AB:cd:01.conf',
    ]);
    const config = configFilePath('/tftpboot', UUID);
    assert.equal(linkTarget(links[0] as string, config), `../${UUID}/config`);
    assert.equal(linkTarget(links[1] as string, config), `${UUID}/config`);
    const infiniband = macLinkPaths('/tftpboot', 'pxelinux.cfg', '52:54:00:ab:cd:01', 'ff:00');
    assert.equal(infiniband[0], '/tftpboot/pxelinux.cfg/20-52-54-00-ab-cd-01');
  });
});

describe('the PXE configuration', () => {
  it('for legacy BIOS is PXELINUX, switched to boot the ramdisk', () => {
    const text = renderPxeConfig(OPTIONS, 'bios');
    assert.equal(defaultBootLabel(text), 'deploy');
    const switched = switchBootLabel(text, 'bios', 'boot_ramdisk');
    assert.equal(defaultBootLabel(switched), 'boot_ramdisk');
    assert.ok(
      switched.includes(
        `label boot_ramdisk\nkernel ${UUID}/kernel\nappend initrd=${UUID}/ramdisk root=/dev/ram0 text nofb nomodeset vga=normal console=ttyS0\n`,
      ),
      switched,
    );
    assert.ok(switched.includes('append mbr:{{ DISK_IDENTIFIER }}'));
  });

  it('for UEFI is GRUB, naming the TFTP server in the deploy entry', () => {
    const text = renderPxeConfig(
      { ...OPTIONS, deploymentAkiPath: `${UUID}/deploy_kernel`, deploymentAriPath: 'x' },
      'uefi',
    );
    assert.match(text, /^set default=deploy$/m);
    assert.ok(
      text.includes(
        `    linuxefi ${UUID}/deploy_kernel selinux=0 troubleshoot=0 text nofb nomodeset vga=normal boot_server=192.0.2.1\n`,
      ),
    );
    assert.equal(defaultBootLabel(switchBootLabel(text, 'uefi', 'boot_ramdisk')), 'boot_ramdisk');
    assert.ok(text.includes('linuxefi chain.c32 mbr:(( DISK_IDENTIFIER ))'));
  });
});

describe('the PXE configuration against the installed Ironic', () => {
  const skip = ironicPythonMissing();

  it("is the real templates' text, for a deploy and for a ramdisk instance alone", {
    skip,
  }, async () => {
    const cases = {
      deploy: {
        ...OPTIONS,
        deploymentAkiPath: `${UUID}/deploy_kernel`,
        deploymentAriPath: `${UUID}/deploy_ramdisk`,
      },
      instance: { ...OPTIONS, ramdiskOpts: undefined },
    };
    const asPython = (o: (typeof cases)[keyof typeof cases]) => ({
      aki_path: o.akiPath,
      ari_path: o.ariPath,
      pxe_append_params: o.pxeAppendParams,
      tftp_server: o.tftpServer,
      ...(o.ramdiskOpts === undefined ? {} : { ramdisk_opts: o.ramdiskOpts }),
      ...('deploymentAkiPath' in o
        ? { deployment_aki_path: o.deploymentAkiPath, deployment_ari_path: o.deploymentAriPath }
        : {}),
    });
    const real = await runIronicPython<Record<string, Record<string, string>>>(`
import json
from ironic.common import utils
from ironic.conf import CONF
CONF([], project='ironic', default_config_files=[])
cases = json.loads(${JSON.stringify(JSON.stringify(Object.fromEntries(Object.entries(cases).map(([name, o]) => [name, asPython(o)]))))})
out = {}
for name, opts in cases.items():
    out[name] = {
        'bios': utils.render_template(CONF.pxe.pxe_config_template, {
            'pxe_options': opts, 'ROOT': '{{ ROOT }}', 'DISK_IDENTIFIER': '{{ DISK_IDENTIFIER }}'}),
        'uefi': utils.render_template(CONF.pxe.uefi_pxe_config_template, {
            'pxe_options': opts, 'ROOT': '(( ROOT ))', 'DISK_IDENTIFIER': '(( DISK_IDENTIFIER ))'}),
    }
print(json.dumps(out))
`);
    for (const [name, options] of Object.entries(cases)) {
      for (const mode of ['bios', 'uefi']) {
        assert.equal(renderPxeConfig(options, mode), real[name]?.[mode], `${name} ${mode}`);
      }
    }
  });
});
