/**
 * The allocation RPC methods (RPC 1.2) and the take-over of allocations left by a dead
 * conductor, as the real manager has them. `create_allocation` stores the allocation with this
 * conductor as its affinity; with a node (a backfill) it is given that node at once, else the
 * allocation process runs in the background and the caller gets it `allocating`.
 * `destroy_allocation` deletes it, under its node's reservation when it has one, refused for a
 * node that is active or busy (unless in maintenance).
 */
import { InvalidStateError } from '../common/errors.ts';
import { STATE_GROUPS } from '../common/provision-states.ts';
import { type AllocationObject, AllocationState } from '../objects/index.ts';
import { backfillAllocation, doAllocate } from './allocations.ts';
import type { ConductorContext } from './conductor-context.ts';
import { withNodeTask } from './node-task.ts';

export async function createAllocation(
  ctx: ConductorContext,
  allocation: AllocationObject,
): Promise<AllocationObject> {
  if (ctx.conductorId !== undefined) allocation.set('conductor_affinity', ctx.conductorId);
  // A backfill names its node; it is given after the allocation is stored.
  const nodeId = allocation.isSet('node_id') ? allocation.get('node_id') : null;
  if (nodeId) allocation.set('node_id', null);
  const created = await ctx.store.allocations.create(allocation);
  if (nodeId) return backfillAllocation(ctx, created, nodeId);
  const copy = created.clone();
  ctx.pool.spawn(
    () => doAllocate(ctx, copy),
    (error) => ctx.log.error(`allocation ${created.get('uuid')} failed: ${error}`),
  );
  return created;
}

/** verify_node_for_deallocation. */
function checkDeallocation(
  node: { get(field: string): unknown },
  uuid: string,
  allocation: string,
): void {
  if (node.get('maintenance')) return;
  const state = String(node.get('provision_state'));
  const updatable = (STATE_GROUPS.updateAllowed as readonly string[]).includes(state);
  if (node.get('target_provision_state') && !updatable) {
    throw new InvalidStateError(
      `Cannot remove allocation ${allocation} for node ${uuid}, because the node is in state ${state} where updates are not allowed (and maintenance mode is off)`,
    );
  }
  if (state === 'active') {
    throw new InvalidStateError(
      `Cannot remove allocation ${allocation} for node ${uuid}, because the node is active (and maintenance mode is off)`,
    );
  }
}

export async function destroyAllocation(
  ctx: ConductorContext,
  allocation: AllocationObject,
): Promise<void> {
  const uuid = String(allocation.get('uuid'));
  const nodeId = allocation.get('node_id');
  if (nodeId) {
    await withNodeTask(ctx, nodeId, { purpose: 'allocation deletion' }, async (task) => {
      checkDeallocation(task.node, task.uuid, uuid);
      // Deleted under the node's reservation, so nothing takes the node meanwhile.
      await ctx.store.allocations.destroy(uuid);
    });
  } else {
    await ctx.store.allocations.destroy(uuid);
  }
  ctx.log.info(`Successfully deleted allocation ${uuid}`);
}

/**
 * _check_orphan_allocations: allocations still `allocating` on a conductor that stopped
 * heartbeating are taken over (one conductor wins each) and processed again here.
 */
export async function checkOrphanAllocations(ctx: ConductorContext): Promise<void> {
  const self = ctx.conductorId;
  if (self === undefined) return;
  const offline = await ctx.store.conductors.offline(ctx.settings.heartbeatTimeout);
  for (const hostname of offline) {
    if (ctx.stopping) return;
    let conductorId: number;
    try {
      conductorId = Number((await ctx.store.conductors.get(hostname, null)).get('id'));
    } catch {
      continue;
    }
    if (conductorId === self) continue;
    const orphans = await ctx.store.allocations.list({
      state: AllocationState.ALLOCATING,
      conductor_affinity: conductorId,
    });
    for (const allocation of orphans) {
      try {
        if (
          !(await ctx.store.allocations.takeOver(Number(allocation.get('id')), conductorId, self))
        )
          continue;
        ctx.log.info(`Taking over allocation ${allocation.get('uuid')}`);
        await doAllocate(ctx, allocation);
      } catch (error) {
        ctx.log.error(
          `Unexpected exception when taking over allocation ${allocation.get('uuid')}: ${error}`,
        );
      }
    }
  }
}
