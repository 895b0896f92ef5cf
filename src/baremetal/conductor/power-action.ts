/**
 * Changing a node's power state, as the real `node_power_action` does: a request that would
 * change nothing (on when on, off when off) only tidies the node; otherwise the target power
 * state is shown while the node's power interface works, `last_power_state_change` is stamped
 * in driver_internal_info, and the node ends in the target state (a reboot leaves it on, a
 * soft power off off). A failure is recorded in last_error.
 */

import { STATE_GROUPS } from '../common/provision-states.ts';
import { recordHistory } from './node-history.ts';
import { stampInternalInfo, wipeInternalInfoOnPowerOff } from './node-info.ts';
import type { NodeTask } from './node-task.ts';

export const POWER_ON = 'power on';
export const POWER_OFF = 'power off';
export const REBOOT = 'rebooting';
export const SOFT_REBOOT = 'soft rebooting';
export const SOFT_POWER_OFF = 'soft power off';

const WIPES_AGENT = [POWER_OFF, SOFT_POWER_OFF, REBOOT, SOFT_REBOOT];

/** The power state a request leaves the node in. */
export function targetPowerState(newState: string): string | null {
  if (newState === POWER_ON || newState === REBOOT || newState === SOFT_REBOOT) return POWER_ON;
  if (newState === POWER_OFF || newState === SOFT_POWER_OFF) return POWER_OFF;
  return null;
}

async function canSkipStateChange(task: NodeTask, newState: string): Promise<boolean> {
  if (![POWER_ON, POWER_OFF, SOFT_POWER_OFF].includes(newState)) return false;
  const node = task.node;
  let current: string | null;
  try {
    current = await task.driver.power.getPowerState(task);
  } catch (error) {
    await recordHistory(
      task.ctx,
      node,
      `Failed to change power state to '${newState}': ${(error as Error).message}`,
    );
    node.set('target_power_state', null);
    await task.save();
    throw error;
  }
  const unchanged =
    (current === POWER_ON && newState === POWER_ON) ||
    (current === POWER_OFF && (newState === POWER_OFF || newState === SOFT_POWER_OFF));
  if (!unchanged) return false;
  node.set('last_error', null);
  node.set('power_state', current);
  node.set('target_power_state', null);
  await task.save();
  return true;
}

/** node_power_action: needs the node reserved; `timeout` (s) goes to the power interface. */
export async function nodePowerAction(
  task: NodeTask,
  newState: string,
  timeout?: number,
): Promise<void> {
  const node = task.node;
  if (await canSkipStateChange(task, newState)) {
    if (WIPES_AGENT.includes(newState)) {
      wipeInternalInfoOnPowerOff(node);
      await task.save();
    }
    return;
  }
  const target = targetPowerState(newState);
  node.set('target_power_state', target);
  if (!(STATE_GROUPS.failure as readonly string[]).includes(task.provisionState)) {
    node.set('last_error', null);
  }
  stampInternalInfo(node, 'last_power_state_change', task.ctx.store.context.now());
  if (WIPES_AGENT.includes(newState)) wipeInternalInfoOnPowerOff(node);
  await task.save();
  try {
    if (newState === REBOOT) await task.driver.power.reboot(task, timeout);
    else await task.driver.power.setPowerState(task, newState, timeout);
  } catch (error) {
    node.set('target_power_state', null);
    await recordHistory(
      task.ctx,
      node,
      `Failed to change power state to '${target}' by '${newState}': ${(error as Error).message}`,
    );
    await task.save();
    throw error;
  }
  node.set('power_state', target);
  node.set('target_power_state', null);
  await task.save();
}
