/**
 * What a conductor does about nodes whose conductor went away, as the real one does, but for
 * every such node rather than `[conductor] periodic_max_workers` of them (node-sweeps.ts):
 *
 * - at start, and at every provision state check, nodes mapped here and left unreserved in a
 *   state no conductor can resume (`deploying`, `cleaning`, `verifying`...) fail with "The
 *   <state> state can't be resumed by conductor <host>. Moving to fail state."
 *   (`_fail_transient_state`; the real one looks only at start, so a node it did not fail
 *   then, or one mapped here by a ring change after its conductor's restart, stayed there),
 *   and unreserved nodes left waiting for a power state lose that target;
 * - periodically (`[conductor] check_provision_state_interval`), nodes mapped here and still
 *   reserved by a dead conductor (not seen for `heartbeat_timeout`) are freed; one left
 *   `deploying` or `cleaning` fails (`deploy failed`, `clean failed`) with "Operation was aborted
 *   due to conductor take over", and a pending power change is dropped
 *   (`_check_orphan_nodes`);
 * - periodically (`sync_local_state_interval`), active nodes newly mapped here (their
 *   `conductor_affinity` names another conductor) are taken over (`_sync_local_state`).
 *
 * Unreserved, such a node has nobody working on it: every operation holds the reservation
 * from the moment it moves the node to a transient state until it leaves it.
 */
import { NodeLockedError, NodeNotLockedError, NotFoundError } from '../common/errors.ts';
import { ProvisionState as S, STATE_GROUPS } from '../common/provision-states.ts';
import type { ConductorContext } from './conductor-context.ts';
import { abortOnConductorTakeOver } from './error-handlers.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import { failIfInState, forEachAtMost, nodesMappedHere } from './node-sweeps.ts';
import { withNodeTask } from './node-task.ts';
import { doTakeover } from './provision-work.ts';

export const TAKEOVER_ABORTED_POWER =
  'Pending power operation was aborted due to conductor take over';

/**
 * _fail_transient_state for every stuck state, and the power targets no task is waiting for
 * (run once the conductor is registered, and at every provision state check).
 */
export async function failTransientStates(ctx: ConductorContext): Promise<void> {
  for (const state of STATE_GROUPS.stuckTreatedAsFail) {
    await failIfInState(ctx, { reserved: false, provision_state: state }, new Set([state]), {
      sortKey: 'provision_updated_at',
      lastError: `The ${state} state can't be resumed by conductor ${ctx.settings.host}. Moving to fail state.`,
    });
  }
  const waiting = await nodesMappedHere(
    ctx,
    { reserved: false },
    { fields: ['target_power_state'] },
  );
  const stale = waiting.filter((node) => node.get('target_power_state') !== null);
  await forEachAtMost(ctx, stale, async (node) => {
    await dropPowerTarget(ctx, String(node.get('uuid')));
  });
}

/** Drops the node's pending power change, if it still has one, saying why. */
async function dropPowerTarget(ctx: ConductorContext, uuid: string): Promise<void> {
  try {
    await withNodeTask(ctx, uuid, { purpose: 'power state clean up' }, async (task) => {
      if (!task.node.get('maintenance') && task.node.get('target_power_state') !== null) {
        task.node.set('target_power_state', null);
        await recordHistory(ctx, task.node, TAKEOVER_ABORTED_POWER, {
          eventType: HistoryEvent.TAKEOVER,
        });
        await task.save();
      }
    });
  } catch (error) {
    if (error instanceof NodeLockedError || error instanceof NotFoundError) return;
    throw error;
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
  await forEachAtMost(ctx, nodes, async (node) => {
    const uuid = String(node.get('uuid'));
    const holder = node.get('reservation');
    if (holder === null) return;
    try {
      await ctx.store.reservations.release(holder, node.get('id'));
      ctx.log.warn(
        `Forcibly removed reservation of conductor ${holder} on node ${uuid} as that conductor went offline`,
      );
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof NodeLockedError) return;
      if (!(error instanceof NodeNotLockedError)) throw error;
    }
    const state = node.get('provision_state');
    if (
      !node.get('maintenance') &&
      (state === S.DEPLOYING || state === S.CLEANING || node.get('target_power_state') !== null)
    ) {
      cleanup.push(uuid);
    }
  });
  await forEachAtMost(ctx, cleanup, async (uuid) => {
    await dropPowerTarget(ctx, uuid);
    await failIfInState(ctx, { uuid }, new Set([S.DEPLOYING, S.CLEANING]), {
      sortKey: 'provision_updated_at',
      callback: { name: 'abort_on_conductor_take_over', run: abortOnConductorTakeOver },
    });
  });
}

/** _sync_local_state: active nodes whose affinity is another conductor are taken over. */
export async function syncLocalState(ctx: ConductorContext): Promise<void> {
  const id = ctx.conductorId;
  if (id === undefined) return;
  // The affinity alone, as Ironic's iter_nodes: a node to take is read again under its lock.
  const nodes = await nodesMappedHere(
    ctx,
    { reserved: false, maintenance: false, provision_state: S.ACTIVE },
    { fields: ['conductor_affinity'] },
  );
  const others = nodes.filter((node) => node.get('conductor_affinity') !== id);
  const acquire = { purpose: 'node take over', inlineWork: true };
  await forEachAtMost(ctx, others, async (node) => {
    try {
      await withNodeTask(ctx, String(node.get('uuid')), acquire, async (task) => {
        const current = task.node;
        if (
          current.get('maintenance') ||
          current.get('conductor_affinity') === id ||
          current.get('provision_state') !== S.ACTIVE
        )
          return;
        task.spawnAfter({ name: '_do_takeover', run: doTakeover });
      });
    } catch (error) {
      if (error instanceof NodeLockedError || error instanceof NotFoundError) return;
      throw error;
    }
  });
}
