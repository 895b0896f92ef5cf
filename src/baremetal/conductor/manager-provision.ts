/**
 * The RPC methods that start an operation in the background (the API answers 202): each
 * takes the node's reservation, validates as the real manager does, moves the node to its
 * transient state and hands the rest to the worker pool, which releases the node when done.
 * The refusals are the real ones: InvalidStateRequested (400), NodeInMaintenance (400),
 * NodeProtected (403), NodeIsRetired (400), NodeLocked (409), NoFreeConductorWorker (503).
 */
import {
  InstanceRescueFailureError,
  InvalidParameterError,
  InvalidStateRequestedError,
  NodeInMaintenanceError,
  NodeIsRetiredError,
  NodeProtectedError,
  UnsupportedDriverExtensionError,
} from '../common/errors.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import * as cleaning from './clean-work.ts';
import type { ConductorContext } from './conductor-context.ts';
import * as deploying from './deploy-work.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import { deleteInternalInfo, setInstanceInfo, wipeTokenAndUrl } from './node-info.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';
import { nodePowerAction, POWER_ON, REBOOT, SOFT_POWER_OFF, SOFT_REBOOT } from './power-action.ts';
import * as work from './provision-work.ts';
import { hashRescuePassword } from './rescue-password.ts';

export async function changeNodePowerState(
  ctx: ConductorContext,
  nodeId: string,
  newState: string,
  timeout?: number,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'changing node power state' }, async (task) => {
    await task.driver.power.validate(task);
    if (!task.driver.power.supportedPowerStates(task).includes(newState)) {
      throw new InvalidParameterError(
        `The driver ${task.node.get('driver')} does not support the power state, ${newState}`,
      );
    }
    const powerTimeout =
      newState === SOFT_REBOOT || newState === SOFT_POWER_OFF
        ? (timeout ?? ctx.settings.softPowerOffTimeout)
        : timeout;
    const previous = task.node.get('power_state');
    task.node.set(
      'target_power_state',
      [POWER_ON, REBOOT, SOFT_REBOOT].includes(newState) ? 'power on' : 'power off',
    );
    task.node.set('last_error', null);
    await task.save();
    task.spawnAfter(
      { name: 'node_power_action', run: (t) => nodePowerAction(t, newState, powerTimeout) },
      async () => {
        task.node.set('power_state', previous);
        task.node.set('target_power_state', null);
        await recordHistory(task.ctx, task.node, 'No free conductor workers available', {
          eventType: HistoryEvent.CONDUCTOR,
        });
        await task.save();
      },
    );
  });
}

export interface DeployArgs {
  readonly rebuild?: boolean;
  readonly configdrive?: unknown;
  readonly deploySteps?: readonly Record<string, unknown>[];
}

export async function doNodeDeploy(
  ctx: ConductorContext,
  nodeId: string,
  args: DeployArgs,
): Promise<void> {
  const event = args.rebuild ? 'rebuild' : 'deploy';
  await withNodeTask(ctx, nodeId, { purpose: 'node deployment' }, async (task) => {
    deploying.validateNodeForDeploy(task, event);
    await deploying.startDeploy(task, {
      event,
      ...(args.configdrive === undefined ? {} : { configdrive: args.configdrive }),
      ...(args.deploySteps === undefined ? {} : { deploySteps: args.deploySteps }),
    });
  });
}

export async function doNodeTearDown(ctx: ConductorContext, nodeId: string): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'node tear down' }, async (task) => {
    deleteInternalInfo(task.node, 'agent_url');
    if (task.node.get('protected')) throw new NodeProtectedError(task.uuid);
    await task.driver.power.validate(task);
    const initial = task.provisionState;
    await task.requestEvent('delete', 'delete', {
      revertOnNoWorker: true,
      work: { name: '_do_node_tear_down', run: (t) => deploying.doNodeTearDown(t, initial) },
    });
  });
}

export async function doNodeClean(
  ctx: ConductorContext,
  nodeId: string,
  cleanSteps: readonly Record<string, unknown>[],
  disableRamdisk = false,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'node manual cleaning' }, async (task) => {
    if (task.node.get('maintenance')) throw new NodeInMaintenanceError('cleaning', task.uuid);
    try {
      await task.driver.power.validate(task);
      await task.driver.network.validate(task);
    } catch (error) {
      if (!(error instanceof InvalidParameterError)) throw error;
      throw new InvalidParameterError(
        `Validation of node ${task.uuid} for cleaning failed: ${error.message}`,
      );
    }
    await task.requestEvent('clean', 'manual clean', {
      target: S.MANAGEABLE,
      revertOnNoWorker: true,
      work: {
        name: 'do_node_clean',
        run: (t) => cleaning.doNodeClean(t, cleanSteps, disableRamdisk),
      },
    });
  });
}

export async function inspectHardware(ctx: ConductorContext, nodeId: string): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'hardware inspection' }, async (task) => {
    await task.driver.power.validate(task);
    await task.driver.inspect.validate(task);
    await task.requestEvent('inspect', 'inspect', {
      revertOnNoWorker: true,
      work: { name: '_do_inspect_hardware', run: work.doInspectHardware },
    });
  });
}

export async function doNodeRescue(
  ctx: ConductorContext,
  nodeId: string,
  rescuePassword: string,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'node rescue' }, async (task) => {
    const node = task.node;
    if (node.get('maintenance')) throw new NodeInMaintenanceError('rescuing', task.uuid);
    wipeTokenAndUrl(node);
    setInstanceInfo(node, 'rescue_password', rescuePassword);
    setInstanceInfo(node, 'hashed_rescue_password', hashRescuePassword(rescuePassword));
    await task.save();
    try {
      await task.driver.power.validate(task);
      await task.driver.rescue.validate(task);
      await task.driver.network.validate(task);
    } catch (error) {
      if (
        !(
          error instanceof InvalidParameterError || error instanceof UnsupportedDriverExtensionError
        )
      )
        throw error;
      work.removeRescuePassword(task);
      await task.save();
      throw new InstanceRescueFailureError(
        task.node.get('instance_uuid'),
        task.uuid,
        `Validation failed: ${error.message}`,
      );
    }
    try {
      await task.requestEvent('rescue', 'rescue', {
        revertOnNoWorker: true,
        work: { name: '_do_node_rescue', run: work.doNodeRescue },
      });
    } catch (error) {
      if (error instanceof InvalidStateRequestedError) {
        work.removeRescuePassword(task);
        await task.save();
      }
      throw error;
    }
  });
}

export async function doNodeUnrescue(ctx: ConductorContext, nodeId: string): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'node unrescue' }, async (task) => {
    deleteInternalInfo(task.node, 'agent_url');
    if (task.node.get('maintenance')) throw new NodeInMaintenanceError('unrescuing', task.uuid);
    await task.driver.power.validate(task);
    await task.requestEvent('unrescue', 'unrescue', {
      revertOnNoWorker: true,
      work: { name: '_do_node_unrescue', run: work.doNodeUnrescue },
    });
  });
}

/** manage, provide, adopt, abort (and any other verb the machine takes without work). */
export async function doProvisioningAction(
  ctx: ConductorContext,
  nodeId: string,
  action: string,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: `provision action ${action}` }, async (task) => {
    const state = task.provisionState;
    const node = task.node;
    if (action === 'provide' && state === S.MANAGEABLE) {
      if (!ctx.settings.allowProvisioningInMaintenance && node.get('maintenance')) {
        throw new NodeInMaintenanceError('providing', task.uuid);
      }
      if (node.get('retired')) throw new NodeIsRetiredError('providing', task.uuid);
      await task.processEvent('provide', {
        revertOnNoWorker: true,
        work: { name: 'do_node_clean', run: (t) => cleaning.doNodeClean(t) },
      });
      return;
    }
    if (action === 'manage' && state === S.ENROLL) {
      await task.processEvent('manage', {
        revertOnNoWorker: true,
        work: { name: 'do_node_verify', run: work.doNodeVerify },
      });
      return;
    }
    if (action === 'adopt' && (state === S.MANAGEABLE || state === S.ADOPTFAIL)) {
      await task.processEvent('adopt', {
        revertOnNoWorker: true,
        work: { name: '_do_adoption', run: work.doAdoption },
      });
      return;
    }
    if (action === 'abort' && [S.CLEANWAIT, S.RESCUEWAIT, S.INSPECTWAIT].includes(state as never)) {
      await doAbort(task);
      return;
    }
    await task.requestEvent(action as never, action);
  });
}

/** manager._do_abort: clean wait, rescue wait, inspect wait. */
async function doAbort(task: NodeTask): Promise<void> {
  const node = task.node;
  const state = task.provisionState;
  if (state === S.CLEANWAIT) {
    const step = node.get('clean_step') as Record<string, unknown> | null;
    if (step && Object.keys(step).length > 0 && !step.abortable) {
      if (!step.abort_after) {
        node.set('clean_step', { ...step, abort_after: true });
        await task.save();
      }
      return;
    }
    const target = node.get('target_provision_state') === S.MANAGEABLE ? S.MANAGEABLE : null;
    await task.processEvent('abort', {
      target,
      revertOnNoWorker: true,
      lastError: cleaning.abortedCleaningError(node),
      work: { name: 'do_node_clean_abort', run: cleaning.doNodeCleanAbort },
    });
    return;
  }
  if (state === S.RESCUEWAIT) {
    work.removeRescuePassword(task);
    await task.save();
    await task.processEvent('abort', {
      revertOnNoWorker: true,
      work: { name: '_do_node_rescue_abort', run: work.doNodeRescueAbort },
    });
    return;
  }
  await work.abortInspection(task);
}
