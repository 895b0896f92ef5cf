/**
 * How the conductor's periodic tasks walk nodes (Ironic's `iter_nodes` and
 * `_fail_if_in_state`): only the nodes the hash ring maps to this conductor, and for those
 * found in a given state, the state machine's `fail` under the node's reservation, with a
 * last_error or a follow-up run there and then. A sweep goes through every node it found,
 * `[conductor] periodic_max_workers` at a time: Ironic stops after that many nodes and leaves
 * the others to the next run, or, for a state only the start looks at, to nobody (issue 24: of
 * 20 nodes a dead conductor left deploying, a new one failed 8 and left 12 for good). A locked
 * or vanished node is skipped.
 */

import { setImmediate as nextTurn } from 'node:timers/promises';
import { NodeLockedError, NotFoundError } from '../common/errors.ts';
import type { ProvisionState } from '../common/provision-states.ts';
import type { NodeFilters } from '../db/index.ts';
import type { NodeObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
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

/**
 * Runs `each` on every item, at most `limit` at once, until all are done or the conductor
 * stops; the first failure is thrown once the others have ended. Each worker lets the event
 * loop turn after each item: on SQLite every query answers synchronously, so a sweep of
 * thousands of nodes would otherwise run as one chain of promises and hold back every RPC
 * call for its whole length (a power sync of 1,600 nodes held them 0.3-0.5 s).
 */
export async function forEachAtMost<T>(
  ctx: ConductorContext,
  items: readonly T[],
  each: (item: T) => Promise<void>,
  limit = ctx.settings.periodicMaxWorkers,
): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < items.length && !ctx.stopping && failures.length === 0) {
      const item = items[next++] as T;
      try {
        await each(item);
      } catch (error) {
        failures.push(error);
      }
      await nextTurn();
    }
  };
  const workers = Math.min(Math.max(1, limit), items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (failures.length > 0) throw failures[0];
}

export interface FailInStateOptions {
  readonly sortKey?: string;
  /** Follow-up run once the node has failed, still reserved (Ironic's callback_method). */
  readonly callback?: { readonly name: string; readonly run: (task: NodeTask) => Promise<void> };
  /** last_error when there is no callback. */
  readonly lastError?: string;
  /** Keep the node's target provision state through the failure. */
  readonly keepTargetState?: boolean;
}

/** _fail_if_in_state, for every node found; returns how many were failed. */
export async function failIfInState(
  ctx: ConductorContext,
  filters: NodeFilters,
  states: ReadonlySet<ProvisionState>,
  options: FailInStateOptions = {},
): Promise<number> {
  const candidates = await nodesMappedHere(ctx, filters, { sortKey: options.sortKey ?? 'id' });
  let failed = 0;
  // The follow-up runs in the task, not the worker pool: a full pool would put the node back
  // in the state it is failed from, with nobody to fail it again.
  const acquire = { purpose: 'node state check', inlineWork: true };
  await forEachAtMost(ctx, candidates, async (candidate) => {
    try {
      const moved = await withNodeTask(
        ctx,
        String(candidate.get('uuid')),
        acquire,
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
              work: options.callback,
            });
          } else {
            await recordHistory(ctx, task.node, options.lastError ?? '', {
              eventType: HistoryEvent.TRANSITION,
            });
            await task.processEvent('fail', target ? { target } : {});
          }
          return true;
        },
      );
      if (moved) failed += 1;
    } catch (error) {
      if (error instanceof NodeLockedError || error instanceof NotFoundError) return;
      throw error;
    }
  });
  return failed;
}
