/**
 * What the conductor does to a node when its work fails, as the real error handlers do
 * (ironic/conductor/utils.py): the failure is recorded in last_error, the half-done step
 * bookkeeping is wiped, and the state machine's `fail` moves the node to its failed state.
 */

import { fastTrackAble } from '../common/agent-token.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import { deleteInternalInfo, wipeDeployInternalInfo, wipeTokenAndUrl } from './node-info.ts';
import type { NodeTask } from './node-task.ts';

/** Ironic's `faults.CLEAN_FAILURE`. */
export const CLEAN_FAILURE_FAULT = 'clean failure';

export const TAKEOVER_ABORTED = 'Operation was aborted due to conductor take over';

/** deploying_error_handler: last_error, deploy bookkeeping wiped, `deploy failed`. */
export async function deployingErrorHandler(
  task: NodeTask,
  errmsg: string,
  options: { readonly cleanUp?: boolean } = {},
): Promise<void> {
  await recordHistory(task.ctx, task.node, errmsg, { eventType: HistoryEvent.DEPLOYING });
  await task.save();
  let cleanupError: string | undefined;
  if (options.cleanUp !== false) {
    try {
      await task.driver.deploy.cleanUp(task);
    } catch (error) {
      cleanupError = `${errmsg}. Also failed to clean up due to: ${(error as Error).message}`;
    }
  }
  await task.refresh();
  const state = task.provisionState;
  if (state === S.DEPLOYING || state === S.DEPLOYWAIT || state === S.DEPLOYFAIL) {
    task.node.set('deploy_step', {});
    wipeDeployInternalInfo(task.node, fastTrackAble(task.node, task.ctx.settings.fastTrack));
  }
  if (cleanupError !== undefined) {
    await recordHistory(task.ctx, task.node, cleanupError, { eventType: HistoryEvent.DEPLOYING });
  }
  await task.save();
  await task.processEvent('fail');
}

export interface CleaningErrorOptions {
  /** Set the failed state (false when the node is already in `clean failed`). */
  readonly setFailState?: boolean;
  /** Default: when a clean step was running. */
  readonly setMaintenance?: boolean;
}

/** cleaning_error_handler: last_error (and maintenance if a step was running), `clean failed`. */
export async function cleaningErrorHandler(
  task: NodeTask,
  errmsg: string,
  options: CleaningErrorOptions = {},
): Promise<void> {
  const node = task.node;
  const cleanStep = node.get('clean_step') as Record<string, unknown> | null;
  const setMaintenance =
    options.setMaintenance ?? (cleanStep !== null && Object.keys(cleanStep).length > 0);
  if (setMaintenance) {
    node.set('fault', CLEAN_FAILURE_FAULT);
    node.set('maintenance', true);
  }
  const state = task.provisionState;
  if (state === S.CLEANING || state === S.CLEANWAIT || state === S.CLEANFAIL) {
    node.set('clean_step', {});
    deleteInternalInfo(
      node,
      'clean_step_index',
      'cleaning_reboot',
      'cleaning_polling',
      'skip_current_clean_step',
    );
    wipeTokenAndUrl(node);
  }
  const manualClean = node.get('target_provision_state') === S.MANAGEABLE;
  await recordHistory(task.ctx, node, errmsg, { eventType: HistoryEvent.CLEANING });
  if (!node.get('maintenance_reason') && setMaintenance) node.set('maintenance_reason', errmsg);
  await task.save();
  if (options.setFailState !== false && task.provisionState !== S.CLEANFAIL) {
    await task.processEvent('fail', manualClean ? { target: S.MANAGEABLE } : {});
  }
}

/** abort_on_conductor_take_over: the fail event has been processed; say why. */
export async function abortOnConductorTakeOver(task: NodeTask): Promise<void> {
  if (task.provisionState === S.CLEANFAIL) {
    await cleaningErrorHandler(task, TAKEOVER_ABORTED, { setFailState: false });
    return;
  }
  await recordHistory(task.ctx, task.node, TAKEOVER_ABORTED, { eventType: HistoryEvent.TAKEOVER });
  await task.save();
}
