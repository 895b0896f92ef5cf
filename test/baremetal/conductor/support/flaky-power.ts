/**
 * A power interface for tests of the power state sync, given to a conductor through the driver
 * catalogue (the seam a new hardware type uses) and enabled beside `fake` for fake-hardware
 * nodes (`power_interface: flaky`): each node's hardware power state is kept here, apart from
 * the node record, so that it can change behind the conductor's back; its reads can be made to
 * fail, and how many run at once is counted.
 */

import type { DriverTask } from '../../../../src/baremetal/drivers/base-interface.ts';
import {
  BUILTIN_DRIVERS,
  type DriverCatalog,
} from '../../../../src/baremetal/drivers/driver-catalog.ts';
import { STANDALONE_ENABLED_INTERFACES } from '../../../../src/baremetal/drivers/enabled-interfaces.ts';
import type { Implementation } from '../../../../src/baremetal/drivers/implementation.ts';
import type { PowerInterface } from '../../../../src/baremetal/drivers/interfaces/index.ts';

export class FlakyHardware {
  /** The hardware's power state by node uuid; a node not here is off. */
  readonly power = new Map<string, string>();
  /** Nodes whose BMC does not answer. */
  readonly failing = new Set<string>();
  /** How long a read takes (ms). */
  readDelayMs = 0;
  reads = 0;
  /** The nodes whose power state was read. */
  readonly read = new Set<string>();
  inFlight = 0;
  maxInFlight = 0;
  /** The power changes asked of the hardware: `uuid state`. */
  readonly changes: string[] = [];

  reset(): void {
    this.power.clear();
    this.failing.clear();
    this.readDelayMs = 0;
    this.reads = 0;
    this.read.clear();
    this.inFlight = 0;
    this.maxInFlight = 0;
    this.changes.length = 0;
  }
}

export const FLAKY = new FlakyHardware();

const uuidOf = (task: DriverTask) => String(task.node.get('uuid'));

class FlakyPower implements PowerInterface {
  readonly kind = 'power' as const;
  readonly name = 'flaky';

  async validate(): Promise<void> {}

  async getPowerState(task: DriverTask): Promise<string | null> {
    FLAKY.reads++;
    FLAKY.read.add(uuidOf(task));
    FLAKY.inFlight++;
    FLAKY.maxInFlight = Math.max(FLAKY.maxInFlight, FLAKY.inFlight);
    try {
      if (FLAKY.readDelayMs > 0) await new Promise((r) => setTimeout(r, FLAKY.readDelayMs));
      if (FLAKY.failing.has(uuidOf(task))) throw new Error('BMC did not answer');
      return FLAKY.power.get(uuidOf(task)) ?? 'power off';
    } finally {
      FLAKY.inFlight--;
    }
  }

  async setPowerState(task: DriverTask, state: string): Promise<void> {
    if (FLAKY.failing.has(uuidOf(task))) throw new Error('BMC did not answer');
    FLAKY.changes.push(`${uuidOf(task)} ${state}`);
    FLAKY.power.set(uuidOf(task), state === 'soft power off' ? 'power off' : state);
  }

  async reboot(task: DriverTask): Promise<void> {
    FLAKY.changes.push(`${uuidOf(task)} rebooting`);
    FLAKY.power.set(uuidOf(task), 'power on');
  }

  supportedPowerStates(): readonly string[] {
    return ['power on', 'power off', 'rebooting'];
  }
}

const flakyPower: Implementation<'power'> = {
  kind: 'power',
  name: 'flaky',
  className: 'test.FlakyPower',
  properties: {},
  create: () => new FlakyPower(),
};

export const FLAKY_CATALOG: DriverCatalog = {
  hardwareTypes: BUILTIN_DRIVERS.hardwareTypes,
  implementations: [...BUILTIN_DRIVERS.implementations, flakyPower],
};

export const FLAKY_ENABLED = {
  enabledInterfaces: { ...STANDALONE_ENABLED_INTERFACES, power: ['fake', 'flaky'] },
};
