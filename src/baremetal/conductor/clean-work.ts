/**
 * Cleaning, as the real `conductor/cleaning.py` runs it. Automated cleaning (`provide`, and
 * after a tear-down) runs the clean steps of priority above 0 the node's interfaces offer,
 * which fake hardware has none of, so the node goes straight on to `available`; with automated
 * cleaning off (`[conductor] automated_clean`, or the node's own `automated_clean`) the steps
 * are skipped altogether. Manual cleaning (`clean`) checks the user's steps against what the
 * interfaces offer (the fake BIOS's three) and the arguments they declare, with the real
 * messages, runs them, and ends in `manageable`; a refused step ends in `clean failed` with
 * last_error.
 */
import { fastTrackAble } from '../common/agent-token.ts';
import { skipsAutomatedCleaning } from '../common/automated-cleaning.ts';
import { InvalidParameterError } from '../common/errors.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import type { DriverStep } from '../drivers/base-interface.ts';
import { cleanStepsOf, executeStep } from '../drivers/node-driver.ts';
import type { NodeObject } from '../objects/index.ts';
import { cleaningErrorHandler } from './error-handlers.ts';
import {
  internalInfo,
  pythonRepr,
  setInternalInfo,
  wipeCleaningInternalInfo,
} from './node-info.ts';
import type { NodeTask } from './node-task.ts';

type UserStep = Record<string, unknown>;

const stepId = (step: { interface?: unknown; step?: unknown }) =>
  `${String(step.interface)}.${String(step.step)}`;

/** _validate_user_clean_steps: the user's steps, completed from the driver's; InvalidParameterValue. */
export function validateUserCleanSteps(
  userSteps: readonly UserStep[],
  driverSteps: readonly DriverStep[],
  disableRamdisk: boolean,
): UserStep[] {
  const known = new Map(driverSteps.map((step) => [stepId(step), step]));
  const errors: string[] = [];
  const result: UserStep[] = [];
  for (const original of userSteps) {
    const user = { ...original };
    const driver = known.get(stepId(user));
    if (driver === undefined) {
      errors.push(`node does not support this clean step: ${pythonRepr(user)}`);
      continue;
    }
    const argsinfo = driver.argsinfo ?? {};
    const args = (user.args as Record<string, unknown> | undefined) ?? {};
    const unexpected = Object.keys(args).filter((name) => !Object.hasOwn(argsinfo, name));
    if (unexpected.length > 0) {
      errors.push(
        `clean step ${pythonRepr(user)} has these unexpected arguments: ${unexpected.join(', ')}`,
      );
    }
    const missing = Object.entries(argsinfo)
      .filter(([name, info]) => info.required && !Object.hasOwn(args, name))
      .map(([name, info]) => `${name} (${info.description})`);
    if (missing.length > 0) {
      errors.push(
        `clean step ${pythonRepr(user)} is missing these required arguments: ${missing.join(', ')}`,
      );
    }
    if (disableRamdisk && driver.requiresRamdisk) {
      errors.push(`clean step ${pythonRepr(user)} requires booting a ramdisk`);
    }
    user.abortable = driver.abortable;
    user.priority = driver.priority;
    result.push(user);
  }
  if (errors.length > 0) throw new InvalidParameterError(errors.join('; '));
  return result;
}

/** set_node_cleaning_steps. */
function setNodeCleaningSteps(task: NodeTask, disableRamdisk: boolean): void {
  const node = task.node;
  const manual = node.get('target_provision_state') === S.MANAGEABLE;
  const driverSteps = cleanStepsOf(task.driver);
  const steps = manual
    ? validateUserCleanSteps(
        (internalInfo(node).clean_steps as UserStep[] | null) ?? [],
        driverSteps,
        disableRamdisk,
      )
    : driverSteps
        .filter((step) => step.priority > 0)
        .sort((a, b) => b.priority - a.priority)
        .map((step) => ({ ...step }));
  node.set('clean_step', {});
  setInternalInfo(node, 'clean_steps', steps);
  setInternalInfo(node, 'clean_step_index', null);
}

/** cleaning.do_node_clean: automated when `cleanSteps` is undefined. */
export async function doNodeClean(
  task: NodeTask,
  cleanSteps?: readonly UserStep[],
  disableRamdisk = false,
): Promise<void> {
  const node = task.node;
  const manual = cleanSteps !== undefined;
  const { settings } = task.ctx;
  if (!manual && skipsAutomatedCleaning(node, settings.automatedClean)) {
    node.set('clean_step', {});
    await task.save();
    await task.processEvent('done');
    return;
  }
  if (!settings.allowProvisioningInMaintenance && node.get('maintenance')) {
    await cleaningErrorHandler(task, 'Cleaning a node in maintenance mode is not allowed');
    return;
  }
  try {
    await task.driver.power.validate(task);
    if (!disableRamdisk) await task.driver.network.validate(task);
  } catch (error) {
    await cleaningErrorHandler(
      task,
      `Validation of node ${task.uuid} for cleaning failed: ${(error as Error).message}`,
    );
    return;
  }
  wipeCleaningInternalInfo(node, fastTrackAble(node, task.ctx.settings.fastTrack));
  if (manual) {
    setInternalInfo(node, 'clean_steps', cleanSteps);
    setInternalInfo(node, 'cleaning_disable_ramdisk', disableRamdisk);
  }
  await task.save();
  try {
    setNodeCleaningSteps(task, disableRamdisk);
    await task.save();
  } catch (error) {
    await cleaningErrorHandler(task, `Cannot clean node ${task.uuid}: ${(error as Error).message}`);
    return;
  }
  const steps = (internalInfo(task.node).clean_steps as UserStep[] | null) ?? [];
  await doNextCleanStep(task, steps.length > 0 ? 0 : null);
}

/** cleaning.do_next_clean_step: runs the steps from `index`, then ends the cleaning. */
export async function doNextCleanStep(task: NodeTask, index: number | null): Promise<void> {
  const node = task.node;
  const manual = node.get('target_provision_state') === S.MANAGEABLE;
  const all = (internalInfo(node).clean_steps as UserStep[] | null) ?? [];
  const steps = index === null ? [] : all.slice(index);
  for (const [offset, step] of steps.entries()) {
    task.node.set('clean_step', step);
    setInternalInfo(task.node, 'clean_step_index', (index ?? 0) + offset);
    await task.save();
    const driverStep = cleanStepsOf(task.driver).find((known) => stepId(known) === stepId(step));
    try {
      if (driverStep === undefined) throw new InvalidParameterError(`unknown step ${stepId(step)}`);
      const args = (step.args as Record<string, unknown> | undefined) ?? {};
      await executeStep(task.driver, task, driverStep, args);
    } catch (error) {
      await cleaningErrorHandler(
        task,
        `Node ${task.uuid} failed step ${pythonRepr(step)}: ${(error as Error).message}`,
      );
      return;
    }
  }
  task.node.set('clean_step', {});
  wipeCleaningInternalInfo(task.node, fastTrackAble(task.node, task.ctx.settings.fastTrack));
  await task.save();
  const event = manual || task.node.get('retired') ? 'manage' : 'done';
  await task.processEvent(event);
}

/** cleaning.get_last_error: why an aborted clean stopped. */
export function abortedCleaningError(node: NodeObject): string {
  const step = node.get('clean_step') as UserStep | null;
  const base = 'By request, the clean operation was aborted';
  return step && Object.keys(step).length > 0
    ? `${base} during or after the completion of step "${stepId(step)}"`
    : base;
}

/** cleaning.do_node_clean_abort (fake hardware has nothing to tear down). */
export async function doNodeCleanAbort(task: NodeTask): Promise<void> {
  task.node.set('last_error', abortedCleaningError(task.node));
  task.node.set('clean_step', {});
  wipeCleaningInternalInfo(task.node, fastTrackAble(task.node, task.ctx.settings.fastTrack));
  await task.save();
}
