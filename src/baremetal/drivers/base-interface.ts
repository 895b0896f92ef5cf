/**
 * What every hardware interface has, whatever its kind (Ironic's `BaseInterface`): the kind
 * and entry-point name it is registered under, a `validate` the conductor runs before using it
 * (and `node validate` reports), and the steps it offers for cleaning and deploying.
 *
 * An implementation is an object made once per conductor; its methods take the task, as the
 * real ones do, so that they always read the node the task holds now.
 */
import type { BIOSSettingObject, NodeObject, PortObject } from '../objects/index.ts';
import type { InterfaceKind } from './interface-kinds.ts';
import type { NodeDriver } from './node-driver.ts';

/** What an interface method sees of the conductor's task (NodeTask satisfies it). */
export interface DriverTask {
  readonly node: NodeObject;
  /**
   * The node's rows of `bios_settings` (BIOSSettingList), for a BIOS interface that keeps the
   * settings it reads or applies; absent where no conductor runs the task.
   */
  readonly biosSettings?: BiosSettingRows;
  /**
   * The node's other interfaces (the real `task.driver`): a deploy interface boots through the
   * boot interface, a boot interface sets the boot device through management. Absent where no
   * conductor runs the task.
   */
  readonly driver?: NodeDriver;
  /** The node's ports (the real `task.ports`), read when called. */
  ports?(): Promise<readonly PortObject[]>;
  /**
   * The conductor's power change (the real `manager_utils.node_power_action`): the node's
   * power_state and target follow, a failure is recorded.
   */
  powerAction?(state: 'power on' | 'power off'): Promise<void>;
}

/** What a task must carry for an interface that works through the conductor (pxe, ramdisk). */
export type ConductorTask = DriverTask &
  Required<Pick<DriverTask, 'driver' | 'ports' | 'powerAction'>>;

/** The task as a ConductorTask, or an error naming what is missing (a bug, not a user's). */
export function conductorTask(task: DriverTask, user: string): ConductorTask {
  if (task.driver === undefined || task.ports === undefined || task.powerAction === undefined) {
    throw new Error(`${user} needs a task run by a conductor`);
  }
  return task as ConductorTask;
}

/** What a BIOS interface may do with its node's BIOS setting rows (Ironic's BIOSSettingList). */
export interface BiosSettingRows {
  list(): Promise<BIOSSettingObject[]>;
  create(settings: readonly BIOSSettingObject[]): Promise<void>;
  update(settings: readonly BIOSSettingObject[]): Promise<void>;
  delete(names: readonly string[]): Promise<void>;
}

/** Arguments a step accepts (the real `argsinfo`), by name. */
export type StepArguments = Readonly<
  Record<string, { readonly description: string; readonly required: boolean }>
>;

/** A clean or deploy step an interface offers (the real step dicts). */
export interface DriverStep {
  readonly interface: InterfaceKind;
  readonly step: string;
  readonly priority: number;
  readonly abortable: boolean;
  readonly requiresRamdisk: boolean;
  readonly argsinfo?: StepArguments;
}

export interface HardwareInterface<K extends InterfaceKind = InterfaceKind> {
  readonly kind: K;
  /** The entry-point name nodes and options use: `fake`, `no-console`, `ipmitool`. */
  readonly name: string;
  /**
   * Checks the node has what this interface needs (driver_info, ports...). Throws
   * InvalidParameterError or UnsupportedDriverExtensionError, which `node validate` reports.
   */
  validate(task: DriverTask): Promise<void>;
  /** Clean steps (priority 0: only on request, in manual cleaning). */
  readonly cleanSteps?: readonly DriverStep[];
  readonly deploySteps?: readonly DriverStep[];
  /** Runs one of the steps above; a state to wait in (`clean wait`) or null when done. */
  executeStep?(
    task: DriverTask,
    step: DriverStep,
    args: Readonly<Record<string, unknown>>,
  ): Promise<string | null>;
}
