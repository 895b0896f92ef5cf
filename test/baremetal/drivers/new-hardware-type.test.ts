/**
 * A hardware type only this test knows, to show what a new one takes: a declaration and the
 * implementation modules Baton lacks (here a power interface driving a pretend BMC), put in a
 * catalogue given to the conductor and the API. Nothing else changes: the conductor registers
 * it, the API lists and shows it, nodes get its defaults, its unsupported implementations are
 * refused in the real words, `node validate` runs its modules, power goes through its module;
 * and, with GenericHardware's boot and deploy lists, a node of it is deployed and undeployed
 * with Baton's pxe boot and ramdisk deploy, which power it through that module.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InvalidParameterError } from '../../../src/baremetal/common/errors.ts';
import { startConductor } from '../../../src/baremetal/conductor/conductor-process.ts';
import { defaultConductorSettings } from '../../../src/baremetal/conductor/conductor-settings.ts';
import type { DriverTask } from '../../../src/baremetal/drivers/base-interface.ts';
import {
  BUILTIN_DRIVERS,
  type DriverCatalog,
} from '../../../src/baremetal/drivers/driver-catalog.ts';
import { STANDALONE_ENABLED_INTERFACES } from '../../../src/baremetal/drivers/enabled-interfaces.ts';
import type { HardwareType } from '../../../src/baremetal/drivers/hardware-type.ts';
import { GENERIC_HARDWARE } from '../../../src/baremetal/drivers/hardware-types/generic-hardware.ts';
import type { Implementation } from '../../../src/baremetal/drivers/implementation.ts';
import type { PowerInterface } from '../../../src/baremetal/drivers/interfaces/index.ts';
import { PXE_DEFAULTS } from '../../../src/baremetal/drivers/pxe/pxe-settings.ts';
import { LocalBus, LocalTransport } from '../../../src/rpc/index.ts';
import { startBatonApi } from '../api/support/baton-api.ts';
import { openTestDatabase, UNPINNED } from '../conductor/support/conductor-harness.ts';

/** The pretend BMCs: power state by address, as the hardware would keep it. */
const BMCS = new Map<string, string>();

function bmcAddress(task: DriverTask): string {
  const info = (task.node.get('driver_info') ?? {}) as Record<string, unknown>;
  const address = info.example_address;
  if (typeof address !== 'string') {
    throw new InvalidParameterError(
      "Missing the following example credentials in node's driver_info: example_address.",
    );
  }
  return address;
}

class ExamplePower implements PowerInterface {
  readonly kind = 'power' as const;
  readonly name = 'example';

  async validate(task: DriverTask): Promise<void> {
    bmcAddress(task);
  }

  async getPowerState(task: DriverTask): Promise<string | null> {
    return BMCS.get(bmcAddress(task)) ?? 'power off';
  }

  async setPowerState(task: DriverTask, state: string): Promise<void> {
    BMCS.set(bmcAddress(task), state === 'soft power off' ? 'power off' : state);
  }

  async reboot(task: DriverTask): Promise<void> {
    BMCS.set(bmcAddress(task), 'power on');
  }

  supportedPowerStates(): readonly string[] {
    return ['power on', 'power off', 'rebooting'];
  }
}

/** The one module the new type needs that Baton does not have. */
const examplePower: Implementation<'power'> = {
  kind: 'power',
  name: 'example',
  className: 'example.ExamplePower',
  properties: { example_address: 'Address of the BMC. Required.' },
  create: () => new ExamplePower(),
};

/** The declaration: GenericHardware's lists (boot `pxe`, deploy `ramdisk` among them). */
const EXAMPLE_HARDWARE: HardwareType = {
  name: 'example-hardware',
  className: 'ExampleHardware',
  supported: {
    ...GENERIC_HARDWARE,
    management: ['noop'],
    power: ['example'],
  },
};

const CATALOG: DriverCatalog = {
  hardwareTypes: [...BUILTIN_DRIVERS.hardwareTypes, EXAMPLE_HARDWARE],
  implementations: [...BUILTIN_DRIVERS.implementations, examplePower],
};

const scratch = mkdtempSync(join(tmpdir(), 'baton-example-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
writeFileSync(join(scratch, 'vmlinuz'), 'a kernel');
writeFileSync(join(scratch, 'initrd'), 'a ramdisk');
const tftpRoot = join(scratch, 'tftpboot');

const ENABLED = {
  enabledHardwareTypes: ['fake-hardware', 'example-hardware'],
  enabledInterfaces: {
    ...STANDALONE_ENABLED_INTERFACES,
    boot: ['fake', 'pxe'],
    deploy: ['fake', 'ramdisk'],
    management: ['fake', 'noop'],
    power: ['fake', 'example'],
  },
  automatedClean: false,
  pxe: { ...PXE_DEFAULTS, tftpRoot, fileUrlAllowedPaths: [scratch] },
};

const V = { 'X-OpenStack-Ironic-API-Version': '1.82' };

function faultstring(body: unknown): string {
  const message = (body as { error_message: string }).error_message;
  return (JSON.parse(message) as { faultstring: string }).faultstring;
}

describe('a hardware type declared outside Baton', () => {
  it('is served through the seam alone', async () => {
    const baton = await startBatonApi({ drivers: CATALOG, conductor: ENABLED });
    const get = async (url: string) => {
      const response = await baton.request({ method: 'GET', url, headers: V });
      return { status: response.statusCode, body: response.json() };
    };
    const send = async (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown) => {
      const response = await baton.request({ method, url, headers: V, payload: payload as never });
      return { status: response.statusCode, body: response.body ? response.json() : null };
    };
    try {
      const list = await get('/v1/drivers');
      assert.deepEqual(list.body.drivers.map((d: { name: string }) => d.name).sort(), [
        'example-hardware',
        'fake-hardware',
      ]);
      const shown = (await get('/v1/drivers/example-hardware')).body;
      assert.equal(shown.default_power_interface, 'example');
      assert.deepEqual(shown.enabled_power_interfaces, ['example']);
      assert.equal(shown.default_management_interface, 'noop');
      assert.deepEqual(shown.enabled_bios_interfaces, ['no-bios']);
      assert.equal(shown.default_network_interface, 'noop');
      // Its power module's, beside those of the default boot interface (pxe).
      const properties = (await get('/v1/drivers/example-hardware/properties')).body;
      assert.equal(properties.example_address, 'Address of the BMC. Required.');
      assert.equal(
        properties.deploy_kernel,
        'UUID (from Glance) of the deployment kernel. Required.',
      );

      const created = await send('POST', '/v1/nodes', { driver: 'example-hardware', name: 'e1' });
      assert.equal(created.status, 201);
      assert.equal(created.body.power_interface, 'example');
      assert.equal(created.body.management_interface, 'noop');
      assert.equal(created.body.bios_interface, 'no-bios');
      assert.equal(created.body.rescue_interface, 'no-rescue');
      assert.equal(created.body.boot_interface, 'pxe');
      assert.equal(created.body.deploy_interface, 'ramdisk');

      // The real text prints the object (`'<ironic.drivers.modules.fake.FakeBIOS object at
      // 0x7f…>'`, observed with the real manual-management type); Baton, without its address.
      const refused = await send('POST', '/v1/nodes', {
        driver: 'example-hardware',
        bios_interface: 'fake',
      });
      assert.equal(refused.status, 400);
      assert.equal(
        faultstring(refused.body),
        "bios interface implementation '<ironic.drivers.modules.fake.FakeBIOS object>' is not supported by hardware type ExampleHardware.",
      );
      const patched = await send('PATCH', '/v1/nodes/e1', [
        { op: 'replace', path: '/power_interface', value: 'fake' },
      ]);
      assert.equal(patched.status, 400);
      assert.match(faultstring(patched.body), /^power interface implementation '<.*FakePower/);

      const before = (await get('/v1/nodes/e1/validate')).body;
      assert.deepEqual(before.power, {
        result: false,
        reason: "Missing the following example credentials in node's driver_info: example_address.",
      });
      assert.deepEqual(before.bios, {
        result: false,
        reason: 'Driver example-hardware does not support bios (disabled or not implemented).',
      });
      assert.deepEqual(before.management, { result: true });
      await send('PATCH', '/v1/nodes/e1', [
        { op: 'add', path: '/driver_info/example_address', value: 'bmc-1' },
      ]);
      assert.deepEqual((await get('/v1/nodes/e1/validate')).body.power, { result: true });

      assert.equal(
        (await send('PUT', '/v1/nodes/e1/states/power', { target: 'power on' })).status,
        202,
      );
      for (let i = 0; i < 100; i++) {
        if ((await get('/v1/nodes/e1/states')).body.target_power_state === null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal((await get('/v1/nodes/e1/states')).body.power_state, 'power on');
      assert.equal(BMCS.get('bmc-1'), 'power on');
      const device = await send('PUT', '/v1/nodes/e1/management/boot_device', {
        boot_device: 'disk',
      });
      assert.equal(device.status, 204, 'noop management takes disk, which fake would refuse');

      // Deployed and undeployed with Baton's pxe and ramdisk: no module of its own for them.
      const uuid = created.body.uuid as string;
      await send('POST', '/v1/ports', { node_uuid: uuid, address: '52:54:00:00:00:01' });
      await send('PATCH', '/v1/nodes/e1', [
        { op: 'add', path: '/instance_info/kernel', value: `file://${scratch}/vmlinuz` },
        { op: 'add', path: '/instance_info/ramdisk', value: `file://${scratch}/initrd` },
      ]);
      const reaches = async (state: string) => {
        for (let i = 0; i < 200; i++) {
          const node = (await get('/v1/nodes/e1')).body;
          if (node.provision_state === state || node.provision_state.endsWith('failed')) {
            return node;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`e1 did not reach ${state}`);
      };
      for (const [target, state] of [
        ['manage', 'manageable'],
        ['provide', 'available'],
        ['active', 'active'],
      ]) {
        await send('PUT', '/v1/nodes/e1/states/provision', { target });
        const node = await reaches(state as string);
        assert.equal(node.provision_state, state, node.last_error);
      }
      assert.equal(BMCS.get('bmc-1'), 'power on');
      assert.equal(readFileSync(join(tftpRoot, uuid, 'kernel'), 'utf8'), 'a kernel');
      assert.match(readFileSync(join(tftpRoot, uuid, 'config'), 'utf8'), /default=boot_ramdisk/);
      await send('PUT', '/v1/nodes/e1/states/provision', { target: 'deleted' });
      assert.equal((await reaches('available')).provision_state, 'available');
      assert.equal(BMCS.get('bmc-1'), 'power off');
      assert.equal(existsSync(join(tftpRoot, uuid)), false);
    } finally {
      await baton.close();
    }
  });

  it('keeps a conductor from starting when its power module is not enabled', async () => {
    const database = await openTestDatabase('sqlite::memory:');
    try {
      await assert.rejects(
        startConductor({
          settings: {
            ...defaultConductorSettings('127.0.0.1'),
            ...ENABLED,
            enabledInterfaces: { ...ENABLED.enabledInterfaces, power: ['fake'] },
          },
          database,
          caps: UNPINNED,
          transport: new LocalTransport(new LocalBus()),
          drivers: CATALOG,
        }),
        (error: Error) => {
          assert.equal((error.cause as Error).name, 'NoValidDefaultForInterfaceError');
          assert.equal(
            error.message,
            "For hardware type 'example-hardware', no default value found for power interface could be determined. Please ensure the interfaces are enabled.",
          );
          return true;
        },
      );
    } finally {
      await database.close();
    }
  });
});
