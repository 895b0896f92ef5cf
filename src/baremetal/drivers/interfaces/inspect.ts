/** The inspect interface (Ironic's InspectInterface): learns the node's hardware. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface InspectInterface extends HardwareInterface<'inspect'> {
  /** The state to move to: `manageable` when done, `inspect wait` when it goes on. */
  inspectHardware(task: DriverTask): Promise<string>;
  /** Stops an inspection in `inspect wait` (UnsupportedDriverExtension where it cannot). */
  abort(task: DriverTask): Promise<void>;
}
