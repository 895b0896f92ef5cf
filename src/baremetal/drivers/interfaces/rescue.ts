/** The rescue interface (Ironic's RescueInterface): boots an active node into a rescue ramdisk. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface RescueInterface extends HardwareInterface<'rescue'> {
  /** The state to move to: `rescue`, or `rescue wait` while the ramdisk comes up. */
  rescue(task: DriverTask): Promise<string>;
  /** The state to move to (`active`). */
  unrescue(task: DriverTask): Promise<string>;
  cleanUp(task: DriverTask): Promise<void>;
}
