/** The console interface (Ironic's ConsoleInterface): the node's serial console. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface ConsoleInterface extends HardwareInterface<'console'> {
  startConsole(task: DriverTask): Promise<void>;
  stopConsole(task: DriverTask): Promise<void>;
  /** How to reach the console (`{type, url}`), `{}` when there is nothing to reach. */
  getConsole(task: DriverTask): Promise<Readonly<Record<string, unknown>>>;
}
