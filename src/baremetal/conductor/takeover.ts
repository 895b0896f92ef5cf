/**
 * What a conductor does about nodes whose conductor went away, as the real one does:
 *
 * - at start, nodes mapped here and left unreserved in a state no conductor can resume
 *   (`deploying`, `cleaning`, `verifying`...) fail with "The <state> state can't be resumed by
 *   conductor <host>. Moving to fail state." (`_fail_transient_state`);
 * - periodically (`[conductor] check_provision_state_interval`), nodes mapped here and still
 *   reserved by a dead conductor (not seen for `heartbeat_timeout`) are freed; one left
 *   `deploying` or `cleaning` fails (`deploy failed`, `clean failed`) with "Operation was aborted
 *   due to conductor take over", and a pending power change is dropped
 *   (`_check_orphan_nodes`);
 * - periodically (`sync_local_state_interval`), active nodes newly mapped here (their
 *   `conductor_affinity` names another conductor) are taken over (`_sync_local_state`).
 */
import {
  NodeLockedError,
  NodeNotLockedError,
  NoFreeConductorWorkerError,
  NotFoundError,
} from '../common/errors.ts';
import { ProvisionState as S, STATE_GROUPS } from '../common/provision-states.ts';
import type { ConductorContext } from './conductor-context.ts';
import { abortOnConductorTakeOver } from './error-handlers.ts';
import { recordError } from './node-info.ts';
import { failIfInState, nodesMappedHere } from './node-sweeps.ts';
import { withNodeTask } from './node-task.ts';
import { doTakeover } from './provision-work.ts';

export const TAKEOVER_ABORTED_POWER =
  'Pending power operation was aborted due to conductor take over';

/** _fail_transient_state for every stuck state (run once the conductor is registered). */
export async function failTransientStates(ctx: ConductorContext): Promise<void> {
  for (const state of STATE_GROUPS.stuckTreatedAsFail) {
    await failIfInState(ctx, { reserved: false, provision_state: state }, new Set([state]), {
      sortKey: 'provision_updated_at',
      lastError: `The ${state} state can't be resumed by conductor ${ctx.settings.host}. Moving to fail state.`,
    });
  }
}

/** _check_orphan_nodes. */
export async function checkOrphanNodes(ctx: ConductorContext): Promise<void> {
  const host = ctx.settings.host.toLowerCase();
  const offline = (await ctx.store.conductors.offline(ctx.settings.heartbeatTimeout)).filter(
    (name) => name.toLowerCase() !== host,
  );
  if (offline.length === 0) return;
  const nodes = await nodesMappedHere(ctx, { reserved_by_any_of: offline });
  const cleanup: string[] = [];
  for (const node of nodes) {
    const uuid = String(node.get('uuid'));
    const holder = node.get('reservation');
    if (holder === null) continue;
    try {
      await ctx.store.reservations.release(holder, node.get('id'));
      ctx.log.warn(
        `Forcibly removed reservation of conductor ${holder} on node ${uuid} as that conductor went offline`,
      );
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof NodeLockedError) continue;
      if (!(error instanceof NodeNotLockedError)) throw error;
    }
    const state = node.get('provision_state');
    if (
      !node.get('maintenance') &&
      (state === S.DEPLOYING || state === S.CLEANING || node.get('target_power_state') !== null)
    ) {
      cleanup.push(uuid);
    }
  }
  for (const uuid of cleanup) {
    if (ctx.stopping) return;
    try {
      await withNodeTask(ctx, uuid, { purpose: 'power state clean up' }, async (task) => {
        if (!task.node.get('maintenance') && task.node.get('target_power_state') !== null) {
          task.node.set('target_power_state', null);
          recordError(task.node, TAKEOVER_ABORTED_POWER);
          await task.save();
        }
      });
    } catch (error) {
      if (error instanceof NodeLockedError || error instanceof NotFoundError) continue;
      throw error;
    }
    await failIfInState(ctx, { uuid }, new Set([S.DEPLOYING, S.CLEANING]), {
      sortKey: 'provision_updated_at',
      callback: { name: 'abort_on_conductor_take_over', run: abortOnConductorTakeOver },
    });
  }
}

/** _sync_local_state: active nodes whose affinity is another conductor are taken over. */
export async function syncLocalState(ctx: ConductorContext): Promise<void> {
  const id = ctx.conductorId;
  if (id === undefined) return;
  const nodes = await nodesMappedHere(ctx, {
    reserved: false,
    maintenance: false,
    provision_state: S.ACTIVE,
  });
  let started = 0;
  for (const node of nodes) {
    if (ctx.stopping || started >= ctx.settings.periodicMaxWorkers) return;
    if (node.get('conductor_affinity') === id) continue;
    try {
      const spawned = await withNodeTask(
        ctx,
        String(node.get('uuid')),
        { purpose: 'node take over' },
        async (task) => {
          const current = task.node;
          if (
            current.get('maintenance') ||
            current.get('conductor_affinity') === id ||
            current.get('provision_state') !== S.ACTIVE
          )
            return false;
          task.spawnAfter({ name: '_do_takeover', run: doTakeover });
          return true;
        },
      );
      if (spawned) started += 1;
    } catch (error) {
      if (error instanceof NoFreeConductorWorkerError) return;
      if (error instanceof NodeLockedError || error instanceof NotFoundError) continue;
      throw error;
    }
  }
}
