/**
 * The deploy interface (Ironic's DeployInterface): puts an instance on the node (through its
 * deploy steps, `deploy` among them) and takes it off again.
 */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface DeployInterface extends HardwareInterface<'deploy'> {
  prepare(task: DriverTask): Promise<void>;
  /** The `deploy` step: a state to wait in (`deploy wait`), or null when done. */
  deploy(task: DriverTask): Promise<string | null>;
  /** The provision state the node is left in (`deleted`). */
  tearDown(task: DriverTask): Promise<string>;
  cleanUp(task: DriverTask): Promise<void>;
  /** This conductor takes over an active node (another one looked after it). */
  takeOver(task: DriverTask): Promise<void>;
}
