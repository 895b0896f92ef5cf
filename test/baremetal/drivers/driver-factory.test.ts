/**
 * The driver seam's rules, as Ironic 21.4.4's driver_factory applies them: what a conductor
 * loads from `enabled_hardware_types` and `enabled_<kind>_interfaces`, each kind's default
 * (`default_<kind>_interface` first), the refusals in the real words (the texts were observed
 * on the real service: test/baremetal/api/real-ironic-default-interfaces.test.ts holds the
 * ones a node shows to the real one), and how a node's driver is composed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  DriverNotFoundError,
  DriverNotFoundInEntrypointError,
  InterfaceNotFoundInEntrypointError,
  NoDriversLoadedError,
  NoValidDefaultForInterfaceError,
} from '../../../src/baremetal/common/errors.ts';
import {
  type ConductorSettings,
  defaultConductorSettings,
  FAKE_NO_DELAYS,
} from '../../../src/baremetal/conductor/conductor-settings.ts';
import {
  BUILTIN_DRIVERS,
  catalogDuplicates,
  implementationNames,
} from '../../../src/baremetal/drivers/driver-catalog.ts';
import { DriverFactory } from '../../../src/baremetal/drivers/driver-factory.ts';
import {
  INTERFACE_KINDS,
  type InterfaceKind,
  interfaceField,
} from '../../../src/baremetal/drivers/interface-kinds.ts';
import { Node } from '../../../src/baremetal/objects/index.ts';

const HOST = '127.0.0.1';
/** What Baton enables by default: the comparison setup (STANDALONE_ENABLED_INTERFACES). */
const STANDALONE = defaultConductorSettings(HOST).enabledInterfaces;

function load(settings: Partial<ConductorSettings> = {}) {
  const base = defaultConductorSettings(HOST);
  return DriverFactory.load(
    BUILTIN_DRIVERS,
    {
      ...base,
      ...settings,
      enabledInterfaces: { ...base.enabledInterfaces, ...settings.enabledInterfaces },
    },
    { fake: FAKE_NO_DELAYS },
    HOST,
  );
}

function newNode(fields: Record<string, unknown> = {}) {
  return Node.create({ uuid: randomUUID(), driver: 'fake-hardware', ...fields } as never);
}

function defaultsOf(factory: DriverFactory): Record<string, string> {
  const node = newNode();
  factory.checkAndUpdateNodeInterfaces(node);
  return Object.fromEntries(INTERFACE_KINDS.map((k) => [k, String(node.get(interfaceField(k)))]));
}

/** The rows' default for each kind, as `driver show` gives it. */
function registeredDefaults(factory: DriverFactory): Record<string, string> {
  return Object.fromEntries(
    factory
      .registrationRows()
      .filter((row) => row.default)
      .map((row) => [row.interfaceType, row.interfaceName]),
  );
}

const messageOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('no error');
};

describe('the driver catalogue', () => {
  it('has one module per implementation name and kind, each making what it declares', () => {
    assert.deepEqual(catalogDuplicates(BUILTIN_DRIVERS), []);
    for (const implementation of BUILTIN_DRIVERS.implementations) {
      const made = implementation.create({ fake: FAKE_NO_DELAYS });
      assert.equal(made.kind, implementation.kind);
      assert.equal(made.name, implementation.name);
      assert.match(implementation.className, /^ironic\.drivers\.modules\./);
    }
    assert.deepEqual(implementationNames(BUILTIN_DRIVERS, 'management'), [
      'fake',
      'noop',
      'ipmitool',
    ]);
    assert.deepEqual(implementationNames(BUILTIN_DRIVERS, 'power'), ['fake', 'ipmitool']);
    assert.deepEqual(implementationNames(BUILTIN_DRIVERS, 'network'), ['noop']);
  });

  it('lets every built-in hardware type start with all its available implementations enabled', () => {
    for (const type of BUILTIN_DRIVERS.hardwareTypes) {
      const enabled = Object.fromEntries(
        INTERFACE_KINDS.map((kind) => [
          kind,
          type.supported[kind].filter((name) =>
            implementationNames(BUILTIN_DRIVERS, kind).includes(name),
          ),
        ]),
      ) as Record<InterfaceKind, string[]>;
      const factory = load({ enabledHardwareTypes: [type.name], enabledInterfaces: enabled });
      assert.ok(factory.registrationRows().length > 0, type.name);
    }
  });
});

describe('defaults', () => {
  it('takes the first supported implementation enabled for every kind', () => {
    assert.deepEqual(defaultsOf(load()), {
      boot: 'fake',
      deploy: 'fake',
      management: 'fake',
      network: 'noop',
      power: 'fake',
      bios: 'fake',
      console: 'no-console',
      inspect: 'fake',
      raid: 'fake',
      rescue: 'fake',
      storage: 'noop',
      vendor: 'fake',
    });
  });

  it('takes default_<kind>_interface when set (issue 24: no-console and noop over fake)', () => {
    const enabledInterfaces = {
      ...STANDALONE,
      console: ['fake', 'no-console'],
      storage: ['fake', 'noop'],
    };
    const chosen = load({
      enabledInterfaces,
      defaultInterfaces: { console: 'no-console', storage: 'noop' },
    });
    assert.equal(defaultsOf(chosen).console, 'no-console');
    assert.equal(defaultsOf(chosen).storage, 'noop');
    assert.equal(registeredDefaults(chosen).console, 'no-console');
    assert.equal(registeredDefaults(chosen).storage, 'noop');
    const unset = load({ enabledInterfaces, defaultInterfaces: {} });
    assert.equal(defaultsOf(unset).console, 'fake');
    assert.equal(defaultsOf(unset).storage, 'fake');
  });

  it('defaults storage to noop, as the real option does', () => {
    assert.deepEqual(defaultConductorSettings(HOST).defaultInterfaces, { storage: 'noop' });
    const both = load({ enabledInterfaces: { ...STANDALONE, storage: ['fake', 'noop'] } });
    assert.equal(defaultsOf(both).storage, 'noop');
  });

  it('enables the first supported implementation of each type for a kind left empty', () => {
    const factory = load({ enabledInterfaces: { ...STANDALONE, console: [] } });
    assert.deepEqual(factory.enabled('console'), ['fake']);
    assert.equal(defaultsOf(factory).console, 'fake');
  });

  it('leaves the implementations a node names alone, and checks them', () => {
    const factory = load();
    const node = newNode({ bios_interface: 'no-bios', rescue_interface: null });
    assert.equal(factory.checkAndUpdateNodeInterfaces(node), true);
    assert.equal(node.get('bios_interface'), 'no-bios');
    assert.equal(node.get('rescue_interface'), 'fake');
    assert.equal(factory.checkAndUpdateNodeInterfaces(node), false);
  });
});

describe('refusals', () => {
  it('refuses a node implementation that is not enabled', () => {
    const factory = load();
    const node = newNode({ console_interface: 'fake' });
    assert.throws(() => factory.checkAndUpdateNodeInterfaces(node), {
      name: 'InterfaceNotFoundInEntrypointError',
      message:
        "Could not find the following interface in the 'ironic.hardware.interfaces.console' entrypoint: fake. Valid interfaces are ['no-console'].",
    });
    assert.throws(() => factory.driverFor(node), InterfaceNotFoundInEntrypointError);
  });

  it('refuses a hardware type this conductor does not run', () => {
    const node = newNode({ driver: 'ipmi' });
    assert.throws(() => load().checkAndUpdateNodeInterfaces(node), DriverNotFoundError);
    assert.equal(
      messageOf(() => load().driverFor(node)),
      'Could not find the following driver(s) or hardware type(s): ipmi.',
    );
  });

  it('lets instance_info choose an implementation for the instance, checked as the field is', () => {
    const factory = load();
    const chosen = newNode({ instance_info: { inspect_interface: 'no-inspect' } });
    assert.equal(factory.driverFor(chosen).inspect.name, 'no-inspect');
    const bogus = newNode({ instance_info: { deploy_interface: 'direct' } });
    assert.equal(
      messageOf(() => factory.driverFor(bogus)),
      "Could not find the following interface in the 'ironic.hardware.interfaces.deploy' entrypoint: direct. Valid interfaces are ['fake'].",
    );
  });

  it('stops a conductor whose default is not enabled, in the real words (observed)', () => {
    // Logged by the real conductor as "Failed to register hardware types. <this>", then it exits.
    assert.equal(
      messageOf(() => load({ defaultInterfaces: { console: 'fake' } }).registrationRows()),
      "Could not find the following interface in the 'ironic.hardware.interfaces.console' entrypoint: fake. Valid interfaces are ['no-console'].",
    );
    assert.equal(
      messageOf(() => load({ defaultInterfaces: { console: '' } }).registrationRows()),
      "Could not find the following interface in the 'ironic.hardware.interfaces.console' entrypoint: . Valid interfaces are ['no-console'].",
      'an empty option is set, to nothing',
    );
    assert.equal(
      messageOf(() =>
        load({ enabledInterfaces: { ...STANDALONE, storage: ['fake'] } }).registrationRows(),
      ),
      "Could not find the following interface in the 'ironic.hardware.interfaces.storage' entrypoint: noop. Valid interfaces are ['fake'].",
    );
  });

  it('stops a conductor naming unknown hardware, or none, in the real words (observed)', () => {
    assert.throws(() => load({ enabledHardwareTypes: ['fake-hardware', 'bogus-type'] }), {
      name: 'DriverNotFoundInEntrypointError',
      message:
        "Could not find the following items in the 'ironic.hardware.types' entrypoint: bogus-type.",
    });
    assert.throws(() => load({ enabledInterfaces: { ...STANDALONE, boot: ['fake', 'bogus'] } }), {
      message:
        "Could not find the following items in the 'ironic.hardware.interfaces.boot' entrypoint: bogus.",
    });
    assert.throws(() => load({ enabledHardwareTypes: [] }), NoDriversLoadedError);
    assert.equal(
      messageOf(() => load({ enabledHardwareTypes: [''] })),
      'Conductor 127.0.0.1 cannot be started because no hardware types were loaded.',
    );
    assert.ok(new DriverNotFoundInEntrypointError(['x'], 'y').code === 404);
  });

  it('words a missing default with the node when there is one', () => {
    assert.equal(
      new NoValidDefaultForInterfaceError('power', 'example', 'n-1').message,
      "For node n-1 with hardware type 'example', no default value found for power interface could be determined. Please ensure the interfaces are enabled.",
    );
    assert.equal(
      new NoValidDefaultForInterfaceError('power', 'example').message,
      "For hardware type 'example', no default value found for power interface could be determined. Please ensure the interfaces are enabled.",
    );
  });
});

describe('a node driver', () => {
  it('is composed of the node’s implementations, one object per conductor and name', async () => {
    const factory = load();
    const node = newNode({ rescue_interface: 'no-rescue' });
    const driver = factory.driverFor(node);
    assert.equal(driver.hardwareType.name, 'fake-hardware');
    assert.equal(driver.rescue.name, 'no-rescue');
    assert.equal(driver.power.name, 'fake');
    assert.equal(factory.driverFor(newNode()).power, driver.power);
    await assert.rejects(driver.rescue.rescue({ node }), {
      name: 'UnsupportedDriverExtensionError',
      message: 'Driver fake-hardware does not support rescue (disabled or not implemented).',
    });
    node.set('power_state', 'power off');
    await driver.power.setPowerState({ node }, 'power on');
    assert.equal(await driver.power.getPowerState({ node }), 'power on');
  });
});
