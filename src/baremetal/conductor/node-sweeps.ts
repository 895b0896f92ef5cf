/**
 * How the conductor's periodic tasks walk nodes (Ironic's `iter_nodes` and
 * `_fail_if_in_state`): only the nodes the hash ring maps to this conductor, and for those
 * found in a given state, the state machine's `fail` under the node's reservation, with a
 * last_error or a follow-up in the worker pool. At most `[conductor] periodic_max_workers`
 * nodes are moved per sweep; a locked or vanished node is skipped, a full pool ends the sweep.
 */

import { NodeLockedError, NoFreeConductorWorkerError, NotFoundError } from '../common/errors.ts';
import type { ProvisionState } from '../common/provision-states.ts';
import type { NodeFilters } from '../db/index.ts';
import type { NodeObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { recordError } from './node-info.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';

/** The nodes matching `filters` that the ring maps to this conductor, oldest first by `sortKey`. */
export async function nodesMappedHere(
  ctx: ConductorContext,
  filters: NodeFilters,
  options: { readonly sortKey?: string; readonly fields?: readonly string[] } = {},
): Promise<NodeObject[]> {
  const nodes = await ctx.store.nodes.list({
    filters,
    sortKey: options.sortKey ?? 'id',
    sortDir: 'asc',
    // One node a newer release wrote must not stop the sweep for every other.
    onNewerRow: (uuid, error) => ctx.log.warn(`periodic task skips node ${uuid}: ${error.message}`),
    ...(options.fields === undefined
      ? {}
      : { fields: ['uuid', 'driver', 'conductor_group', ...options.fields] }),
  });
  const rings = await ctx.rings.rings();
  const host = ctx.settings.host;
  return nodes.filter((node) =>
    rings.isMappedTo(
      {
        uuid: String(node.get('uuid')),
        driver: String(node.get('driver')),
        conductorGroup: node.get('conductor_group') ?? '',
      },
      host,
    ),
  );
}

export interface FailInStateOptions {
  readonly sortKey?: string;
  /** Follow-up work in the pool once the node has failed (Ironic's callback_method). */
  readonly callback?: { readonly name: string; readonly run: (task: NodeTask) => Promise<void> };
  /** last_error when there is no callback. */
  readonly lastError?: string;
  /** Keep the node's target provision state through the failure. */
  readonly keepTargetState?: boolean;
}

/** _fail_if_in_state; returns how many nodes were failed. */
export async function failIfInState(
  ctx: ConductorContext,
  filters: NodeFilters,
  states: ReadonlySet<ProvisionState>,
  options: FailInStateOptions = {},
): Promise<number> {
  const candidates = await nodesMappedHere(ctx, filters, { sortKey: options.sortKey ?? 'id' });
  let failed = 0;
  for (const candidate of candidates) {
    if (ctx.stopping) break;
    try {
      const moved = await withNodeTask(
        ctx,
        String(candidate.get('uuid')),
        { purpose: 'node state check' },
        async (task) => {
          if (
            filters.maintenance !== undefined &&
            filters.maintenance !== task.node.get('maintenance')
          )
            return false;
          if (!states.has(task.provisionState)) return false;
          const target = options.keepTargetState
            ? (task.node.get('target_provision_state') as ProvisionState | null)
            : null;
          if (options.callback !== undefined) {
            await task.processEvent('fail', {
              ...(target ? { target } : {}),
              revertOnNoWorker: true,
              work: options.callback,
            });
          } else {
            recordError(task.node, options.lastError ?? '');
            await task.processEvent('fail', target ? { target } : {});
          }
          return true;
        },
      );
      if (!moved) continue;
    } catch (error) {
      if (error instanceof NoFreeConductorWorkerError) break;
      if (error instanceof NodeLockedError || error instanceof NotFoundError) continue;
      throw error;
    }
    failed += 1;
    if (failed >= ctx.settings.periodicMaxWorkers) break;
  }
  return failed;
}
