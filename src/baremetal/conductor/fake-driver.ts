/**
 * How a fake-hardware node's interfaces behave when the conductor drives them, as the real
 * `ironic/drivers/modules/fake.py` does: power changes are only recorded on the node, a
 * deploy succeeds at once, tear-down answers `deleted`, inspection and rescue finish without
 * waiting, the management interface knows only PXE and remembers nothing, the BIOS interface
 * offers its three clean steps (all of priority 0, needing a ramdisk), RAID none. `noop`
 * network and storage do nothing (no VIFs are ever listed); a `no-*` implementation refuses
 * everything with UnsupportedDriverExtension. `[fake] *_delay` makes an operation take time,
 * as it does in the real service, for tests that need work in flight.
 */

import { InvalidParameterError, UnsupportedDriverExtensionError } from '../common/errors.ts';
import {
  bootDeviceRefusal,
  FAKE_BOOT_DEVICE,
  FAKE_SUPPORTED_BOOT_DEVICES,
  FAKE_SUPPORTED_POWER_STATES,
} from '../drivers/fake-hardware.ts';
import { type InterfaceKind, interfaceField } from '../drivers/interface-kinds.ts';
import type { NodeObject } from '../objects/index.ts';
import type { FakeDelays } from './conductor-settings.ts';

/** A clean or deploy step an interface offers (Ironic's step dicts). */
export interface DriverStep {
  readonly interface: InterfaceKind;
  readonly step: string;
  readonly priority: number;
  readonly abortable: boolean;
  readonly requiresRamdisk: boolean;
}

const BIOS_CLEAN_STEPS: readonly DriverStep[] = [
  'apply_configuration',
  'cache_bios_settings',
  'factory_reset',
].map((step) => ({
  interface: 'bios',
  step,
  priority: 0,
  abortable: false,
  requiresRamdisk: true,
}));

const FAKE_DEPLOY_STEPS: readonly DriverStep[] = [
  { interface: 'deploy', step: 'deploy', priority: 100, abortable: false, requiresRamdisk: true },
];

/** Seconds a fake operation sleeps for a `[fake] *_delay` range (triangular, mode at the low end). */
export function delaySeconds([low, high]: readonly [number, number], random = Math.random): number {
  if (low === 0 && high === 0) return 0;
  if (low === high) return low;
  return low + (high - low) * (1 - Math.sqrt(1 - random()));
}

function sleep(range: readonly [number, number]): Promise<void> {
  const seconds = delaySeconds(range);
  if (seconds <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/** The interfaces of one node, as the conductor uses them. */
export class FakeHardwareDriver {
  readonly #node: () => NodeObject;
  readonly #delays: FakeDelays;

  /** `node` gives the task's node as it is now (the task reloads it). */
  constructor(node: () => NodeObject, delays: FakeDelays) {
    this.#node = node;
    this.#delays = delays;
  }

  /** The node's implementation of a kind (`fake`, `noop`, `no-rescue`...). */
  implementation(kind: InterfaceKind): string {
    return String(this.#node().get(interfaceField(kind)) ?? '');
  }

  /** Whether the kind is implemented at all (a `no-*` one is not). */
  supports(kind: InterfaceKind): boolean {
    return !this.implementation(kind).startsWith('no-');
  }

  /** The kind's `validate()`: fake and noop pass; `no-*` is UnsupportedDriverExtension. */
  validate(kind: InterfaceKind): void {
    if (!this.supports(kind)) {
      throw new UnsupportedDriverExtensionError(String(this.#node().get('driver')), kind);
    }
  }

  // ---- power ----

  async getPowerState(): Promise<string | null> {
    this.validate('power');
    await sleep(this.#delays.power);
    return this.#node().get('power_state');
  }

  supportedPowerStates(): readonly string[] {
    this.validate('power');
    return FAKE_SUPPORTED_POWER_STATES;
  }

  async setPowerState(state: string): Promise<void> {
    this.validate('power');
    await sleep(this.#delays.power);
    if (!['power on', 'power off', 'soft rebooting', 'soft power off'].includes(state)) {
      throw new InvalidParameterError(
        `set_power_state called with an invalid power state: ${state}.`,
      );
    }
    this.#node().set('power_state', state);
  }

  async reboot(): Promise<void> {
    this.validate('power');
    await sleep(this.#delays.power);
  }

  // ---- management ----

  supportedBootDevices(): readonly string[] {
    this.validate('management');
    return FAKE_SUPPORTED_BOOT_DEVICES;
  }

  async setBootDevice(device: string): Promise<void> {
    this.validate('management');
    await sleep(this.#delays.management);
    const refusal = bootDeviceRefusal(device);
    if (refusal !== undefined) throw new InvalidParameterError(refusal);
  }

  async getBootDevice(): Promise<{ boot_device: string; persistent: boolean }> {
    this.validate('management');
    await sleep(this.#delays.management);
    return { ...FAKE_BOOT_DEVICE };
  }

  // ---- deploy and boot ----

  async prepare(): Promise<void> {
    this.validate('deploy');
    await sleep(this.#delays.deploy);
  }

  /** The deploy step: a fake deploy is done when it returns (no wait state). */
  async deploy(): Promise<null> {
    this.validate('deploy');
    await sleep(this.#delays.deploy);
    return null;
  }

  async tearDown(): Promise<'deleted'> {
    this.validate('deploy');
    await sleep(this.#delays.deploy);
    return 'deleted';
  }

  async cleanUp(): Promise<void> {
    this.validate('deploy');
    await sleep(this.#delays.deploy);
  }

  async takeOver(): Promise<void> {
    this.validate('deploy');
    await sleep(this.#delays.deploy);
  }

  /** The steps the node's interfaces offer for cleaning (the fake BIOS's three). */
  cleanSteps(): readonly DriverStep[] {
    return this.implementation('bios') === 'fake' ? BIOS_CLEAN_STEPS : [];
  }

  deploySteps(): readonly DriverStep[] {
    return this.implementation('deploy') === 'fake' ? FAKE_DEPLOY_STEPS : [];
  }

  /** Runs a clean step of the fake BIOS (it keeps no settings in this release: no table). */
  async executeCleanStep(step: DriverStep): Promise<null> {
    this.validate(step.interface);
    await sleep(this.#delays.bios);
    return null;
  }

  // ---- inspect and rescue ----

  async inspectHardware(): Promise<'manageable'> {
    this.validate('inspect');
    await sleep(this.#delays.inspect);
    return 'manageable';
  }

  async rescue(): Promise<'rescue'> {
    this.validate('rescue');
    await sleep(this.#delays.rescue);
    return 'rescue';
  }

  async unrescue(): Promise<'active'> {
    this.validate('rescue');
    await sleep(this.#delays.rescue);
    return 'active';
  }

  async rescueCleanUp(): Promise<void> {
    this.validate('rescue');
    await sleep(this.#delays.rescue);
  }

  // ---- network (noop) ----

  vifList(): { id: string }[] {
    this.validate('network');
    return [];
  }
}
