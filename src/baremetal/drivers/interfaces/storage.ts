/** The storage interface (Ironic's StorageInterface): volumes attached to the node. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface StorageInterface extends HardwareInterface<'storage'> {
  attachVolumes(task: DriverTask): Promise<void>;
  detachVolumes(task: DriverTask): Promise<void>;
  /** Whether a deploy writes the image to the node's disk (false when booting from a volume). */
  shouldWriteImage(task: DriverTask): boolean;
}
