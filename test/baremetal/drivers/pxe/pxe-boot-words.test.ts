/**
 * The pxe boot interface's refusals against the installed Ironic (Debian's 21.4.4, with the
 * OSSA-2025-001 file:// check): the same node and options given to the real
 * `get_image_instance_info`, `parse_driver_info` and `FileImageService.validate_href` and to
 * Baton's `validate` and image fetch give the same messages. A ramdisk deploy refuses a boot
 * interface without `ramdisk_boot` (fake) in the real words.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { fakeBoot } from '../../../../src/baremetal/drivers/fake/fake-boot.ts';
import { FAKE_NO_DELAYS } from '../../../../src/baremetal/drivers/fake/fake-delays.ts';
import { fetchImage } from '../../../../src/baremetal/drivers/images/image-fetch.ts';
import type { NodeDriver } from '../../../../src/baremetal/drivers/node-driver.ts';
import { pxeBoot } from '../../../../src/baremetal/drivers/pxe/pxe-boot.ts';
import { PXE_DEFAULTS } from '../../../../src/baremetal/drivers/pxe/pxe-settings.ts';
import { ramdiskDeploy } from '../../../../src/baremetal/drivers/ramdisk/ramdisk-deploy.ts';
import { Port } from '../../../../src/baremetal/objects/index.ts';
import { ironicPythonMissing, runIronicPython } from '../../support/ironic-python.ts';
import { ipmiRamdiskNode } from './support/ramdisk-node.ts';

const UUID = randomUUID();
const OPTIONS = { fake: FAKE_NO_DELAYS, pxe: { ...PXE_DEFAULTS, automatedClean: true } };
const boot = pxeBoot.create(OPTIONS);

/** A task as a conductor gives it: one port, the driver's boot interface, no power needed. */
const taskFor = (fields: Record<string, unknown>, bootInterface = boot) => ({
  node: ipmiRamdiskNode({ uuid: UUID, ...fields }),
  driver: { boot: bootInterface } as unknown as NodeDriver,
  ports: async () => [Port.create({ address: '52:54:00:12:34:56', extra: {} } as never)],
  powerAction: async () => {},
});

describe('pxe boot refusals against the installed Ironic', () => {
  const skip = ironicPythonMissing();

  it('are worded as the real ones', { skip }, async () => {
    const real = await runIronicPython<Record<string, string>>(`
import json
from unittest import mock
from ironic.common import exception, image_service, pxe_utils
from ironic.conf import CONF
from ironic.drivers.modules import deploy_utils
CONF([], project='ironic', default_config_files=[])
out = {}
node = mock.Mock(uuid='${UUID}', instance_info={}, driver_info={}, driver_internal_info={},
                 automated_clean=None)
node.get_interface = lambda kind: 'ramdisk'
try:
    deploy_utils.get_image_instance_info(node)
except exception.IronicException as e:
    out['instance'] = str(e)
try:
    pxe_utils.parse_driver_info(node)
except exception.IronicException as e:
    out['driver'] = str(e)
CONF.set_override('file_url_allowed_paths', ['/srv/images'], group='conductor')
try:
    image_service.FileImageService().validate_href('file:///etc/hostname')
except exception.IronicException as e:
    out['file'] = str(e)
print(json.dumps(out))
`);
    // automated_clean on: the deploy ramdisk is required first, as cleaning boots it.
    await assert.rejects(boot.validate(taskFor({})), { message: real.driver });
    const info = { deploy_kernel: 'file:///k', deploy_ramdisk: 'file:///r' };
    await assert.rejects(boot.validate(taskFor({ driver_info: info })), { message: real.instance });
    await assert.rejects(fetchImage('file:///etc/hostname', '/nonexistent', ['/srv/images']), {
      message: real.file,
    });
  });

  it('has a ramdisk deploy refuse fake boot (no ramdisk_boot capability)', async () => {
    const deploy = ramdiskDeploy.create(OPTIONS);
    const fake = fakeBoot.create(OPTIONS);
    await assert.rejects(deploy.validate(taskFor({}, fake as never)), {
      message:
        'Invalid configuration: The boot interface must have the `ramdisk_boot` capability. You are using an incompatible boot interface.',
    });
  });
});
