/**
 * The `ipmi` hardware type's declaration and the ipmitool implementations' properties against
 * the installed Ironic (21.4.4's `IPMIHardware` and `ipmitool.COMMON_PROPERTIES`): each list
 * is the real one, in its order, keeping the names Baton has modules for (boot `pxe`, deploy
 * `ramdisk` among them); the pxe and ramdisk implementations document the real properties.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BUILTIN_DRIVERS,
  implementationNames,
} from '../../../src/baremetal/drivers/driver-catalog.ts';
import { IPMI_HARDWARE_TYPE } from '../../../src/baremetal/drivers/hardware-types/ipmi-hardware.ts';
import { INTERFACE_KINDS } from '../../../src/baremetal/drivers/interface-kinds.ts';
import { ipmitoolManagement } from '../../../src/baremetal/drivers/ipmitool/ipmitool-management.ts';
import { ipmitoolPower } from '../../../src/baremetal/drivers/ipmitool/ipmitool-power.ts';
import { pxeBoot } from '../../../src/baremetal/drivers/pxe/pxe-boot.ts';
import { ramdiskDeploy } from '../../../src/baremetal/drivers/ramdisk/ramdisk-deploy.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

describe('the ipmi hardware type against the installed Ironic', () => {
  const skip = ironicPythonMissing();

  it("keeps the real lists' order, with what Baton implements", { skip }, async () => {
    const real = await runIronicPython<Record<string, (string[] | null)[]>>(`
import json
from importlib.metadata import entry_points
from ironic.drivers import ipmi, base
hw = ipmi.IPMIHardware()
out = {}
for kind in base.BareDriver().all_interfaces:
    names = {}
    for ep in entry_points(group='ironic.hardware.interfaces.%s' % kind):
        names.setdefault(ep.value, []).append(ep.name)
    out[kind] = [names.get('%s:%s' % (c.__module__, c.__name__))
                 for c in getattr(hw, 'supported_%s_interfaces' % kind)]
print(json.dumps(out))
`);
    for (const kind of INTERFACE_KINDS) {
      const available = implementationNames(BUILTIN_DRIVERS, kind);
      const theirs = (real[kind] ?? [])
        .filter((names) => names !== null)
        .map((names) => names[0] as string)
        .filter((name) => available.includes(name));
      const ours = IPMI_HARDWARE_TYPE.supported[kind];
      assert.deepEqual(ours, theirs, kind);
    }
  });

  it('documents the real driver properties', { skip }, async () => {
    const real = await runIronicPython<Record<string, string>>(`
import json
from ironic.drivers.modules import ipmitool
print(json.dumps(ipmitool.COMMON_PROPERTIES))
`);
    assert.deepEqual(ipmitoolPower.properties, real);
    assert.deepEqual(ipmitoolManagement.properties, real);
  });

  it('has pxe boot and ramdisk deploy document the real properties', { skip }, async () => {
    const real = await runIronicPython<Record<string, Record<string, string>>>(`
import json
from ironic.drivers.modules import pxe, ramdisk
print(json.dumps({'pxe': pxe.PXEBoot().get_properties(),
                  'ramdisk': ramdisk.RamdiskDeploy().get_properties()}))
`);
    assert.deepEqual(pxeBoot.properties, real.pxe);
    assert.deepEqual(ramdiskDeploy.properties, real.ramdisk);
  });
});
