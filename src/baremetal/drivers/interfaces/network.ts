/** The network interface (Ironic's NetworkInterface): the node's VIFs and port changes. */
import type { PortgroupObject, PortObject } from '../../objects/index.ts';
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface NetworkInterface extends HardwareInterface<'network'> {
  vifList(task: DriverTask): Promise<{ id: string }[]>;
  vifAttach(task: DriverTask, vifInfo: Readonly<Record<string, unknown>>): Promise<void>;
  vifDetach(task: DriverTask, vifId: string): Promise<void>;
  /** A port of the node is about to be saved with these changes (the network may refuse). */
  portChanged(task: DriverTask, port: PortObject): Promise<void>;
  portgroupChanged(task: DriverTask, portgroup: PortgroupObject): Promise<void>;
}
