/** The power interface (Ironic's PowerInterface): reads and changes a node's power. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface PowerInterface extends HardwareInterface<'power'> {
  /** The state the hardware reports: `power on`, `power off`, or null when unknown. */
  getPowerState(task: DriverTask): Promise<string | null>;
  /** `power on`, `power off`, `soft rebooting` or `soft power off`; `timeout` in seconds. */
  setPowerState(task: DriverTask, state: string, timeout?: number): Promise<void>;
  reboot(task: DriverTask, timeout?: number): Promise<void>;
  /** The targets a user may ask for (`rebooting` included). */
  supportedPowerStates(task: DriverTask): readonly string[];
}
