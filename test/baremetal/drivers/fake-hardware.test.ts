/**
 * Baton's fake-hardware hardware type, composed through the driver seam, held to what the real
 * Ironic 21.4.4 answered, as recorded in test/baremetal/fixtures/real-ironic/ by
 * test/baremetal/support/capture-real-ironic.ts (same setup: STANDALONE_ENABLED_INTERFACES, one
 * conductor named 127.0.0.1).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  DRIVER_FIELDS,
  driverBody,
  driverListBody,
} from '../../../src/baremetal/api/driver-views.ts';
import { BAREMETAL_FEATURE_VERSIONS, type GateCheck } from '../../../src/baremetal/api/features.ts';
import { pythonListRepr } from '../../../src/baremetal/common/driver-errors.ts';
import { InterfaceNotFoundInEntrypointError } from '../../../src/baremetal/common/errors.ts';
import { NoValidHostError } from '../../../src/baremetal/common/hash-ring.ts';
import {
  defaultConductorSettings,
  FAKE_NO_DELAYS,
} from '../../../src/baremetal/conductor/conductor-settings.ts';
import { targetPowerState } from '../../../src/baremetal/conductor/power-action.ts';
import {
  BUILTIN_DRIVERS,
  defaultImplementationProperties,
} from '../../../src/baremetal/drivers/driver-catalog.ts';
import { DriverFactory } from '../../../src/baremetal/drivers/driver-factory.ts';
import {
  interfacesFromRows,
  STANDALONE_ENABLED_INTERFACES,
} from '../../../src/baremetal/drivers/enabled-interfaces.ts';
import {
  FAKE_BOOT_DEVICE,
  FAKE_SUPPORTED_BOOT_DEVICES,
} from '../../../src/baremetal/drivers/fake/fake-management.ts';
import {
  FAKE_HARDWARE,
  FAKE_HARDWARE_TYPE,
} from '../../../src/baremetal/drivers/hardware-types/fake-hardware.ts';
import {
  INTERFACE_KINDS,
  interfaceField,
  isInterfaceKind,
} from '../../../src/baremetal/drivers/interface-kinds.ts';
import { validateInterfaces } from '../../../src/baremetal/drivers/node-validation.ts';
import { RAID_LOGICAL_DISK_PROPERTIES } from '../../../src/baremetal/drivers/raid-logical-disks.ts';
import { Node } from '../../../src/baremetal/objects/index.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

interface Observation {
  request: string;
  requestBody?: unknown;
  from: string;
  to: string;
  status: number;
  body: unknown;
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'real-ironic');
const load = (name: string) =>
  JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Observation[];
const DRIVERS = load('drivers.json');
const NODE = load('fake-hardware-node.json');
const BASE_URL = 'http://127.0.0.1:6385';
const HOST = '127.0.0.1';

const minorOf = (version: string) => Number(version.split('.')[1]);
const at =
  (minor: number): GateCheck =>
  (gate) =>
    minor >= minorOf(BAREMETAL_FEATURE_VERSIONS[gate]);

function versions(observation: Observation): number[] {
  const out: number[] = [];
  for (let m = minorOf(observation.from); m <= minorOf(observation.to); m++) out.push(m);
  return out;
}

function observed(request: string): Observation[] {
  const found = [...DRIVERS, ...NODE].filter((o) => o.request === request);
  assert.ok(found.length > 0, `no observation of ${request}`);
  return found;
}

/** The real lists enabled implementations in Python set order: compare them sorted. */
function sortLists(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(sortLists);
    return items.every((item) => typeof item === 'string') ? [...items].sort() : items;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sortLists(v)]));
  }
  return value;
}

function faultstring(observation: Observation): string {
  const body = observation.body as { error_message: string };
  return (JSON.parse(body.error_message) as { faultstring: string }).faultstring;
}

/** The conductor's drivers in the comparison setup (Baton's defaults are that setup). */
const factory = DriverFactory.load(
  BUILTIN_DRIVERS,
  defaultConductorSettings(HOST),
  { fake: FAKE_NO_DELAYS },
  HOST,
);
const rows = factory.registrationRows();
const fakeHardware = {
  name: FAKE_HARDWARE,
  hosts: [HOST],
  interfaces: interfacesFromRows(FAKE_HARDWARE, rows),
};

describe('fake-hardware drivers against the real Ironic 21.4.4', () => {
  it('answers GET /v1/drivers as the real one at every microversion', () => {
    for (const observation of observed('GET /v1/drivers')) {
      for (const minor of versions(observation)) {
        const ours = driverListBody(
          [fakeHardware],
          { baseUrl: BASE_URL, allows: at(minor) },
          false,
        );
        assert.deepEqual(sortLists(ours), sortLists(observation.body), `1.${minor}`);
      }
    }
  });

  it('answers the detailed list at every version from 1.30, and the gate refuses below', () => {
    for (const observation of observed('GET /v1/drivers?detail=true')) {
      for (const minor of versions(observation)) {
        if (observation.status === 406) {
          assert.equal(at(minor)('dynamicDrivers'), false, `1.${minor}`);
          continue;
        }
        const ours = driverListBody([fakeHardware], { baseUrl: BASE_URL, allows: at(minor) }, true);
        assert.deepEqual(sortLists(ours), sortLists(observation.body), `1.${minor}`);
      }
    }
  });

  it('shows fake-hardware as the real one at every microversion', () => {
    const groups = observed('GET /v1/drivers/fake-hardware');
    assert.ok(groups.length >= 5);
    for (const observation of groups) {
      for (const minor of versions(observation)) {
        const ours = driverBody(fakeHardware, { baseUrl: BASE_URL, allows: at(minor) }, true);
        assert.deepEqual(sortLists(ours), sortLists(observation.body), `1.${minor}`);
      }
    }
  });

  it('lists every field a driver body can have', () => {
    const latest = driverBody(fakeHardware, { baseUrl: BASE_URL, allows: at(80) }, true);
    assert.deepEqual(Object.keys(latest).sort(), [...DRIVER_FIELDS].sort());
  });

  it('has the real properties and RAID logical disk properties', () => {
    const defaults = Object.fromEntries(
      INTERFACE_KINDS.map((kind) => [kind, fakeHardware.interfaces[kind].default]),
    );
    const [properties] = observed('GET /v1/drivers/fake-hardware/properties');
    assert.deepEqual(defaultImplementationProperties(BUILTIN_DRIVERS, defaults), properties?.body);
    for (const observation of observed(
      'GET /v1/drivers/fake-hardware/raid/logical_disk_properties',
    )) {
      for (const minor of versions(observation)) {
        if (observation.status === 406) assert.equal(at(minor)('raidConfig'), false);
        else assert.deepEqual(RAID_LOGICAL_DISK_PROPERTIES, observation.body);
      }
    }
  });
});

/** A new fake-hardware node with its interfaces as the conductor checks and defaults them. */
function newNode(fields: Record<string, string> = {}) {
  const node = Node.create({ uuid: randomUUID(), driver: FAKE_HARDWARE, ...fields });
  factory.checkAndUpdateNodeInterfaces(node);
  return node;
}

const interfacesOf = (node: ReturnType<typeof newNode>) =>
  Object.fromEntries(
    INTERFACE_KINDS.map((kind) => [interfaceField(kind), node.get(interfaceField(kind))]),
  );

describe('a fake-hardware node against the real Ironic 21.4.4', () => {
  it('gets the real default implementations', () => {
    const observation = NODE.find((o) => o.request.startsWith('GET /v1/nodes/{node}?fields='));
    const { links: _links, ...fields } = (observation as Observation).body as Record<
      string,
      unknown
    >;
    assert.deepEqual(interfacesOf(newNode()), fields);
  });

  it('validates as the real one, in its order, at every microversion', async () => {
    const [observation] = observed('GET /v1/nodes/{node}/validate');
    assert.equal(observation?.from, '1.1');
    assert.equal(observation?.to, '1.82');
    const node = newNode();
    const ours = await validateInterfaces(factory.driverFor(node), { node }, HOST);
    assert.deepEqual(ours, observation?.body);
    assert.deepEqual(Object.keys(ours), Object.keys(observation?.body as object));
  });

  it('fails validation of the no-* implementations with the real reasons', async () => {
    const [observation] = observed('GET /v1/nodes/{bare-node}/validate');
    const node = newNode({
      bios_interface: 'no-bios',
      inspect_interface: 'no-inspect',
      raid_interface: 'no-raid',
      rescue_interface: 'no-rescue',
      vendor_interface: 'no-vendor',
    });
    assert.deepEqual(
      await validateInterfaces(factory.driverFor(node), { node }, HOST),
      observation?.body,
    );
  });

  it('refuses implementations that are not enabled, in the real words', () => {
    const refusals = NODE.filter(
      (o) =>
        o.request === 'POST /v1/nodes' &&
        o.status === 400 &&
        faultstring(o).startsWith('Could not find'),
    );
    assert.equal(refusals.length, 3);
    for (const observation of refusals) {
      const [field, value] = Object.entries(observation.requestBody as object).find(
        ([key]) => key !== 'driver',
      ) as [string, string];
      const kind = field.replace(/_interface$/, '');
      assert.ok(isInterfaceKind(kind));
      assert.throws(
        () => newNode({ [field]: value }),
        (error: unknown) =>
          error instanceof InterfaceNotFoundInEntrypointError &&
          error.message === faultstring(observation),
      );
      assert.match(faultstring(observation), /Valid interfaces are \[/);
      assert.ok(
        faultstring(observation).endsWith(
          `${pythonListRepr(STANDALONE_ENABLED_INTERFACES[kind])}.`,
        ),
      );
    }
    assert.equal(pythonListRepr(["it's", 'a']), `["it's", 'a']`);
  });

  it('offers and reports only PXE, and refuses other boot devices in the real words', async () => {
    const node = newNode();
    const task = { node };
    const management = factory.driverFor(node).management;
    assert.deepEqual(observed('GET /v1/nodes/{node}/management/boot_device/supported')[0]?.body, {
      supported_boot_devices: management.supportedBootDevices(task),
    });
    assert.deepEqual(management.supportedBootDevices(task), FAKE_SUPPORTED_BOOT_DEVICES);
    for (const observation of observed('GET /v1/nodes/{node}/management/boot_device')) {
      assert.deepEqual(observation.body, await management.getBootDevice(task));
      assert.deepEqual(observation.body, FAKE_BOOT_DEVICE);
    }
    for (const observation of observed('PUT /v1/nodes/{node}/management/boot_device')) {
      const { boot_device } = observation.requestBody as { boot_device: string };
      const set = management.setBootDevice(task, boot_device, false);
      if (observation.status === 204) await set;
      else await assert.rejects(set, { message: faultstring(observation) });
    }
  });

  it('leaves the node in the power state the real one does after each request', () => {
    const sequence = NODE.filter(
      (o) =>
        (o.request === 'PUT /v1/nodes/{node}/states/power' && o.status === 202) ||
        o.request === 'GET /v1/nodes/{node}/states',
    );
    let checked = 0;
    for (let i = 1; i < sequence.length; i++) {
      const put = sequence[i - 1] as Observation;
      if (!put.request.startsWith('PUT')) continue;
      const { target } = put.requestBody as { target: string };
      const state = ((sequence[i] as Observation).body as { power_state: string }).power_state;
      assert.equal(targetPowerState(target), state, target);
      checked++;
    }
    assert.equal(checked, 5);
  });

  it('finds no valid host for an unknown driver or group, in the real words', () => {
    const refusals = NODE.filter(
      (o) => o.status === 400 && faultstring(o).startsWith('No valid host'),
    );
    assert.equal(refusals.length, 3);
    for (const observation of refusals) {
      const body = observation.requestBody as Record<string, string> | { value: string }[];
      const driver = Array.isArray(body) ? (body[0]?.value as string) : (body.driver as string);
      const group = Array.isArray(body) ? '' : (body.conductor_group ?? '');
      assert.equal(new NoValidHostError(driver, group).message, faultstring(observation));
    }
  });
});

describe('fake-hardware supported implementations against the installed Ironic', () => {
  const skip = ironicPythonMissing();

  it('lists the real supported implementations, by entry point, in preference order', {
    skip,
  }, async () => {
    const real = await runIronicPython<Record<string, (string[] | null)[]>>(`
import json
from importlib.metadata import entry_points
from ironic.drivers import fake_hardware, base
hw = fake_hardware.FakeHardware()
out = {}
for kind in base.BareDriver().all_interfaces:
    names = {}
    for ep in entry_points(group='ironic.hardware.interfaces.%s' % kind):
        names.setdefault(ep.value, []).append(ep.name)
    out[kind] = [names.get('%s:%s' % (c.__module__, c.__name__))
                 for c in getattr(hw, 'supported_%s_interfaces' % kind)]
print(json.dumps(out))
`);
    const theirs = Object.fromEntries(
      Object.entries(real).map(([kind, classes]) => [
        kind,
        // an implementation class with no entry point cannot be enabled: leave it out
        classes.filter((names) => names !== null).map((names) => names[0]),
      ]),
    );
    assert.deepEqual({ ...FAKE_HARDWARE_TYPE.supported }, theirs);
  });
});
