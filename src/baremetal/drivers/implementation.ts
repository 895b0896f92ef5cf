/**
 * One implementation of an interface kind as a conductor loads it (Ironic's entry point in
 * `ironic.hardware.interfaces.<kind>`): its kind and name, the real class behind the name, the
 * driver properties it documents, and how to make it from the conductor's options. Each lives
 * in its own module; driver-catalog.ts lists them.
 */
import type { FakeDelays } from './fake/fake-delays.ts';
import type { InterfaceKind } from './interface-kinds.ts';
import type { InterfaceTypes } from './interfaces/index.ts';
import type { IpmiLog, IpmiSettings } from './ipmitool/ipmi-settings.ts';
import type { PxeSettings } from './pxe/pxe-settings.ts';

/** The options implementations are made with (each family reads its own section). */
export interface DriverOptions {
  /** `[fake] *_delay`. */
  readonly fake: FakeDelays;
  /** `[ipmi]` and the conductor's power timeouts (the real defaults when absent). */
  readonly ipmi?: IpmiSettings;
  /** `[pxe]` and the conductor options the pxe boot interface reads (the real defaults when absent). */
  readonly pxe?: PxeSettings;
  /** Where implementations log (the conductor's log; nowhere when absent). */
  readonly log?: IpmiLog;
}

export interface Implementation<K extends InterfaceKind = InterfaceKind> {
  readonly kind: K;
  /** The entry-point name: what `enabled_<kind>_interfaces` and `<kind>_interface` hold. */
  readonly name: string;
  /** The real class (`ironic.drivers.modules.fake.FakePower`): IncompatibleInterface names it. */
  readonly className: string;
  /** What it adds to `GET /v1/drivers/{name}/properties`: property → description. */
  readonly properties: Readonly<Record<string, string>>;
  /** Made once per conductor, as the real ones are when their entry point loads. */
  create(options: DriverOptions): InterfaceTypes[K];
}

/** An implementation of any kind (the catalogue holds them all in one list). */
export type AnyImplementation = { [K in InterfaceKind]: Implementation<K> }[InterfaceKind];
