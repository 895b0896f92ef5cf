/**
 * The allocation process, as the real `conductor/allocations.py` runs it. `doAllocate` finds
 * the candidate nodes (the resource class, `available`, not in maintenance, no instance, a
 * known power state, among the candidate nodes and of the owner when given, having every
 * trait asked for), tries them in random order (a node named as the allocation first), takes
 * the first it can reserve that still fits, and saves the allocation with it: the node gets
 * the allocation, its UUID as instance_uuid and the traits in instance_info. Locked nodes are
 * tried again, `node_locked_retry_attempts` rounds `node_locked_retry_interval` apart. A
 * failure leaves the allocation in `error` with the real `last_error`.
 *
 * `backfillAllocation` gives an allocation the active node it names (API 1.58).
 */
import {
  AllocationFailedError,
  InstanceAssociatedError,
  NodeAssociatedError,
  NodeLockedError,
  NotFoundError,
} from '../common/errors.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import {
  type AllocationObject,
  AllocationState,
  type NodeObject,
  traitNames,
} from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { pythonRepr } from './node-info.ts';
import { NodeTask, withNodeTask } from './node-task.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function nodeTraits(node: NodeObject): Set<string> {
  const list = node.get('traits');
  return new Set(list ? traitNames(list) : []);
}

function traitsMatch(traits: readonly string[], node: NodeObject): boolean {
  const own = nodeTraits(node);
  return traits.every((trait) => own.has(trait));
}

/** The node's TraitList as oslo.versionedobjects prints it (the real message shows that). */
function traitListRepr(node: NodeObject): string {
  const objects = [...nodeTraits(node)].map(() => 'Trait').join(',');
  return `TraitList(created_at=<?>,objects=[${objects}],updated_at=<?>)`;
}

const failed = (allocation: AllocationObject, error: string) =>
  new AllocationFailedError(String(allocation.get('uuid')), error);

/** _candidate_nodes: the nodes that fit, shuffled, one named as the allocation first. */
async function candidateNodes(
  ctx: ConductorContext,
  allocation: AllocationObject,
): Promise<NodeObject[]> {
  const resourceClass = allocation.get('resource_class');
  const candidates = allocation.get('candidate_nodes');
  const owner = allocation.get('owner');
  let nodes = await ctx.store.nodes.list({
    filters: {
      resource_class: resourceClass ?? '',
      provision_state: S.AVAILABLE,
      associated: false,
      with_power_state: true,
      maintenance: false,
      ...(candidates && candidates.length > 0 ? { uuid_in: candidates } : {}),
      ...(owner ? { project: owner } : {}),
    },
  });
  if (nodes.length === 0) {
    throw failed(
      allocation,
      candidates && candidates.length > 0
        ? `none of the requested nodes are available and match the resource class ${resourceClass}`
        : `no available nodes match the resource class ${resourceClass}`,
    );
  }
  const traits = allocation.get('traits');
  if (traits && traits.length > 0) {
    nodes = nodes.filter((node) => traitsMatch(traits, node));
    if (nodes.length === 0) {
      throw failed(
        allocation,
        `no suitable nodes have the requested traits ${[...new Set(traits)].join(', ')}`,
      );
    }
  }
  for (let i = nodes.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [nodes[i], nodes[j]] = [nodes[j] as NodeObject, nodes[i] as NodeObject];
  }
  const name = allocation.get('name');
  const named = name ? nodes.findIndex((node) => node.get('name') === name) : -1;
  if (named > 0) nodes.unshift(...nodes.splice(named, 1));
  return nodes;
}

/** _verify_node: the node, read under its reservation, still fits. */
function stillFits(node: NodeObject, allocation: AllocationObject): boolean {
  const traits = allocation.get('traits');
  return (
    !node.get('maintenance') &&
    !node.get('instance_uuid') &&
    node.get('provision_state') === S.AVAILABLE &&
    node.get('resource_class') === allocation.get('resource_class') &&
    !(traits && traits.length > 0 && !traitsMatch(traits, node))
  );
}

/** One round of _allocate_node: the allocation saved with a node, or the nodes to try again. */
async function allocateRound(
  ctx: ConductorContext,
  allocation: AllocationObject,
  nodes: readonly NodeObject[],
): Promise<{ done: AllocationObject } | { retry: NodeObject[] }> {
  const retry: NodeObject[] = [];
  for (const node of nodes) {
    let task: NodeTask;
    try {
      task = await NodeTask.acquire(ctx, String(node.get('uuid')), {
        purpose: 'allocating',
        retry: false,
        // Any conductor allocates: it may not have the node's hardware type.
        loadDriver: false,
      });
    } catch (error) {
      if (error instanceof NodeLockedError) {
        retry.push(node);
        continue;
      }
      throw error;
    }
    try {
      if (!stillFits(task.node, allocation)) continue;
      allocation.set('node_id', task.node.get('id'));
      allocation.set('state', AllocationState.ACTIVE);
      const saved = await ctx.store.allocations.save(allocation);
      ctx.log.info(
        `Node ${node.get('uuid')} has been successfully reserved for allocation ${allocation.get('uuid')}`,
      );
      return { done: saved };
    } catch (error) {
      // Another process gave the node an instance first.
      if (!(error instanceof NodeAssociatedError)) throw error;
      allocation.set('node_id', null);
      allocation.set('state', AllocationState.ALLOCATING);
    } finally {
      await task.release();
    }
  }
  return { retry };
}

/** _allocate_node with its retries: every attempt tries again only the nodes found locked. */
async function allocateNode(
  ctx: ConductorContext,
  allocation: AllocationObject,
  nodes: NodeObject[],
): Promise<AllocationObject> {
  const attempts = Math.max(1, ctx.settings.nodeLockedRetryAttempts);
  let left = nodes;
  for (let attempt = 1; ; attempt++) {
    const outcome = await allocateRound(ctx, allocation, left);
    if ('done' in outcome) return outcome.done;
    left = outcome.retry;
    if (attempt >= attempts) {
      throw failed(
        allocation,
        left.length > 0
          ? `could not reserve any of ${left.length} suitable nodes`
          : 'all nodes were filtered out during reservation',
      );
    }
    await sleep(ctx.settings.nodeLockedRetryInterval * 1000);
  }
}

/** _allocation_failed: `error`, no node, the reason kept; a deleted allocation is left be. */
async function allocationFailed(
  ctx: ConductorContext,
  allocation: AllocationObject,
  reason: string,
): Promise<void> {
  try {
    allocation.set('node_id', null);
    allocation.set('state', AllocationState.ERROR);
    allocation.set('last_error', reason);
    await ctx.store.allocations.save(allocation);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    ctx.log.error(`Could not save the failed allocation ${allocation.get('uuid')}: ${error}`);
  }
}

/** do_allocate: runs in the background, never throws. */
export async function doAllocate(
  ctx: ConductorContext,
  allocation: AllocationObject,
): Promise<void> {
  try {
    const nodes = await candidateNodes(ctx, allocation);
    await allocateNode(ctx, allocation, nodes);
  } catch (error) {
    if (error instanceof AllocationFailedError) {
      ctx.log.error(error.message);
      await allocationFailed(ctx, allocation, error.message);
      return;
    }
    ctx.log.error(`Unexpected exception during processing of allocation ${allocation.get('uuid')}`);
    await allocationFailed(
      ctx,
      allocation,
      `Unexpected exception during allocation: ${(error as Error).message}`,
    );
  }
}

/** _do_backfill_allocation's checks: every way the node does not fit, in the real order. */
function backfillErrors(node: NodeObject, allocation: AllocationObject): string[] {
  const errors: string[] = [];
  if (node.get('provision_state') !== S.ACTIVE) {
    errors.push(
      `Node must be in the "active" state, but the current state is "${node.get('provision_state')}"`,
    );
  }
  const resourceClass = allocation.get('resource_class');
  if (resourceClass && node.get('resource_class') !== resourceClass) {
    errors.push(
      `Resource class ${node.get('resource_class') ?? 'None'} does not match the requested resource class ${resourceClass}`,
    );
  }
  const traits = allocation.get('traits');
  if (traits && traits.length > 0 && !traitsMatch(traits, node)) {
    errors.push(
      `List of traits ${traitListRepr(node)} does not match the requested traits ${pythonRepr(traits)}`,
    );
  }
  const candidates = allocation.get('candidate_nodes');
  if (candidates && candidates.length > 0 && !candidates.includes(String(node.get('uuid')))) {
    errors.push(
      `Candidate nodes must be empty or contain the target node, but got ${pythonRepr(candidates)}`,
    );
  }
  return errors;
}

/**
 * backfill_allocation: the active node `nodeId` given to the allocation, under the node's
 * reservation. Whatever refuses it leaves the allocation in `error` and reaches the caller.
 */
export async function backfillAllocation(
  ctx: ConductorContext,
  allocation: AllocationObject,
  nodeId: number,
): Promise<AllocationObject> {
  try {
    return await withNodeTask(ctx, nodeId, { purpose: 'allocation backfilling' }, async (task) => {
      const errors = backfillErrors(task.node, allocation);
      if (errors.length > 0) {
        throw failed(
          allocation,
          `Cannot backfill an allocation for node ${task.uuid}: ${errors.join('; ')}`,
        );
      }
      allocation.set('node_id', task.node.get('id'));
      allocation.set('state', AllocationState.ACTIVE);
      return ctx.store.allocations.save(allocation);
    });
  } catch (error) {
    const known =
      error instanceof AllocationFailedError ||
      error instanceof InstanceAssociatedError ||
      error instanceof NodeAssociatedError ||
      error instanceof NotFoundError;
    const reason = error instanceof Error ? error.message : String(error);
    await allocationFailed(
      ctx,
      allocation,
      known ? reason : `Unexpected exception during allocation: ${reason}`,
    );
    throw error;
  }
}
