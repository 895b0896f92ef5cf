/**
 * A node's allocation goes when its instance goes, as the real manager has it: at the end of a
 * tear-down, and when an update removes the node's instance_uuid (refused outside the states
 * where updates are allowed unless the node is in maintenance). Deleting the allocation frees
 * the node's `allocation_id` and `instance_uuid` in the same write (the store).
 */
import { InvalidStateError, NotFoundError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import type { NodeTask } from './node-task.ts';

async function destroyQuietly(ctx: ConductorContext, allocationId: number): Promise<void> {
  try {
    await ctx.store.allocations.destroy(allocationId);
  } catch (error) {
    // Deleted meanwhile: nothing left to free.
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/** After a tear-down: the node's allocation is deleted and the node read again. */
export async function deleteNodeAllocation(task: NodeTask): Promise<void> {
  const allocationId = task.node.get('allocation_id');
  if (allocationId === null) return;
  await destroyQuietly(task.ctx, allocationId);
  await task.refresh();
}

/**
 * update_node removing the instance of a node that has an allocation: refused outside
 * `allowedStates` unless in maintenance, else the allocation is deleted before the node is
 * saved. `current` is the node as stored, `node` the update.
 */
export async function releaseAllocationOnInstanceRemoval(
  ctx: ConductorContext,
  current: NodeObject,
  node: NodeObject,
  allowedStates: readonly string[],
): Promise<void> {
  const allocationId = current.get('allocation_id');
  if (allocationId === null || node.get('instance_uuid')) return;
  if (
    !current.get('maintenance') &&
    !allowedStates.includes(String(current.get('provision_state')))
  ) {
    throw new InvalidStateError(
      `Node ${node.get('uuid')} with an allocation can not have instance_uuid removed unless it is in one of allowed (${allowedStates.join(', ')}) states or in maintenance mode.`,
    );
  }
  await destroyQuietly(ctx, allocationId);
}
