/**
 * The `fake-hardware` hardware type (Ironic's `fake_hardware.FakeHardware`): the fake
 * implementation first for every kind that has one, then GenericHardware's. The real service
 * lets it combine any enabled implementations (so that tests can try any of them), which the
 * declaration says with `acceptsAnyEnabled`; its lists only choose the defaults.
 */
import type { HardwareType } from '../hardware-type.ts';
import { ABSTRACT_OPTIONAL, GENERIC_HARDWARE } from './generic-hardware.ts';

export const FAKE_HARDWARE = 'fake-hardware';

export const FAKE_HARDWARE_TYPE: HardwareType = {
  name: FAKE_HARDWARE,
  className: 'FakeHardware',
  acceptsAnyEnabled: true,
  supported: {
    bios: ['fake', ...ABSTRACT_OPTIONAL.bios],
    boot: ['fake', ...GENERIC_HARDWARE.boot],
    console: ['fake', ...ABSTRACT_OPTIONAL.console],
    deploy: ['fake', ...GENERIC_HARDWARE.deploy],
    inspect: ['fake', ...GENERIC_HARDWARE.inspect],
    management: ['fake'],
    network: GENERIC_HARDWARE.network,
    power: ['fake'],
    raid: ['fake', ...GENERIC_HARDWARE.raid],
    rescue: ['fake', ...GENERIC_HARDWARE.rescue],
    storage: ['fake', ...GENERIC_HARDWARE.storage],
    // `fake` is FakeVendorB; the real list's FakeVendorA has no entry point and cannot be enabled.
    vendor: ['fake', ...ABSTRACT_OPTIONAL.vendor],
  },
};
