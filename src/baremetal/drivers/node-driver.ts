/**
 * A node's driver as a task uses it (Ironic's BareDriver once `build_driver_for_task` has
 * attached the node's implementations): its hardware type and one implementation of every
 * kind, plus the steps they offer together.
 */
import type { DriverStep, DriverTask, HardwareInterface } from './base-interface.ts';
import type { HardwareType } from './hardware-type.ts';
import type { InterfaceKind } from './interface-kinds.ts';
import type { InterfaceTypes } from './interfaces/index.ts';

export type NodeDriver = { readonly hardwareType: HardwareType } & {
  readonly [K in InterfaceKind]: InterfaceTypes[K];
};

/**
 * The kinds that may have clean and deploy steps, highest first: on equal priorities the real
 * conductor runs the step of the kind listed first (steps.py's *_INTERFACE_PRIORITY).
 */
const STEP_KINDS = ['power', 'management', 'deploy', 'bios', 'raid'] as const;

/** Every clean step of the node's interfaces, in interface priority order. */
export function cleanStepsOf(driver: NodeDriver): DriverStep[] {
  return STEP_KINDS.flatMap((kind) => [...(interfaceOf(driver, kind).cleanSteps ?? [])]);
}

/** Every deploy step of the node's interfaces, in interface priority order. */
export function deployStepsOf(driver: NodeDriver): DriverStep[] {
  return STEP_KINDS.flatMap((kind) => [...(interfaceOf(driver, kind).deploySteps ?? [])]);
}

/** Runs a step on the interface that offers it. */
export async function executeStep(
  driver: NodeDriver,
  task: DriverTask,
  step: DriverStep,
  args: Readonly<Record<string, unknown>> = {},
): Promise<string | null> {
  const implementation = interfaceOf(driver, step.interface);
  if (implementation.executeStep === undefined) {
    throw new Error(`${step.interface} interface ${implementation.name} has no steps`);
  }
  return implementation.executeStep(task, step, args);
}

function interfaceOf(driver: NodeDriver, kind: InterfaceKind): HardwareInterface {
  return driver[kind];
}
