/** Every interface kind's TypeScript interface, and the map from kind to it. */
import type { BiosInterface } from './bios.ts';
import type { BootInterface } from './boot.ts';
import type { ConsoleInterface } from './console.ts';
import type { DeployInterface } from './deploy.ts';
import type { InspectInterface } from './inspect.ts';
import type { ManagementInterface } from './management.ts';
import type { NetworkInterface } from './network.ts';
import type { PowerInterface } from './power.ts';
import type { RaidInterface } from './raid.ts';
import type { RescueInterface } from './rescue.ts';
import type { StorageInterface } from './storage.ts';
import type { VendorInterface } from './vendor.ts';

export type { BiosInterface } from './bios.ts';
export type { BootInterface } from './boot.ts';
export type { ConsoleInterface } from './console.ts';
export type { AgentHeartbeat, DeployInterface } from './deploy.ts';
export type { InspectInterface } from './inspect.ts';
export type {
  BootDevice,
  IndicatorInfo,
  ManagementInterface,
  SupportedIndicators,
} from './management.ts';
export type { NetworkInterface } from './network.ts';
export type { PowerInterface } from './power.ts';
export type { RaidInterface } from './raid.ts';
export type { RescueInterface } from './rescue.ts';
export type { StorageInterface } from './storage.ts';
export type {
  DriverVendorMethod,
  PassthruArgs,
  PassthruMethod,
  VendorInterface,
  VendorMethod,
} from './vendor.ts';

export interface InterfaceTypes {
  bios: BiosInterface;
  boot: BootInterface;
  console: ConsoleInterface;
  deploy: DeployInterface;
  inspect: InspectInterface;
  management: ManagementInterface;
  network: NetworkInterface;
  power: PowerInterface;
  raid: RaidInterface;
  rescue: RescueInterface;
  storage: StorageInterface;
  vendor: VendorInterface;
}
