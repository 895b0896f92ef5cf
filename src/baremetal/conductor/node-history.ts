/**
 * The node history the conductor records (Ironic's `conductor/utils.py` node_history_record):
 * when an operation on a node fails, its message becomes the node's `last_error` and, with
 * `[conductor] node_history` on (the default), a row of `node_history` naming this conductor,
 * the severity (`ERROR`, or `INFO` for an event that is no error), the event and its type. The
 * real one also records the requesting user's id; Baton's conductor does not know it (null).
 * The periodic cleanup (`[conductor] node_history_cleanup_interval`) keeps at most
 * `node_history_max_entries` events per node of this conductor, older than
 * `node_history_minimum_days`, `node_history_cleanup_batch_count` at a time.
 */
import type { NodeObject } from '../objects/index.ts';
import { NodeHistory } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { recordError } from './node-info.ts';

/** Ironic's history event types (ironic/common/states.py, "History Event State Types"). */
export const HistoryEvent = {
  PROVISIONING: 'provisioning',
  CLEANING: 'cleaning',
  DEPLOYING: 'deploying',
  TAKEOVER: 'takeover',
  INTROSPECTION: 'introspection',
  RESCUE: 'rescue',
  CONDUCTOR: 'conductor',
  TRANSITION: 'transition',
  STARTFAIL: 'startup failure',
  UNPROVISION: 'unprovision',
  ADOPTION: 'adoption',
  CONSOLE: 'console',
  MONITORING: 'monitoring',
  VERIFY: 'verify',
  /** verifying_error_handler passes the provision state `verifying`. */
  VERIFYING: 'verifying',
} as const;

export interface HistoryOptions {
  /** The activity; `UNKNOWN` when none is given, as the real one writes it. */
  readonly eventType?: string;
  /** An error (the default here): also the node's last_error, severity ERROR. */
  readonly error?: boolean;
}

/**
 * node_history_record: `event` as the node's last_error (for an error) and, when enabled, a
 * history row. The row is written at once, outside the node's save, as the real one creates
 * it; a failure to write it is logged, never the failure of the operation being recorded.
 */
export async function recordHistory(
  ctx: ConductorContext,
  node: NodeObject,
  event: string,
  options: HistoryOptions = {},
): Promise<void> {
  if (!event) return;
  const error = options.error ?? true;
  if (error) recordError(node, event);
  if (!ctx.settings.nodeHistory) return;
  try {
    await ctx.store.nodeHistory.create(
      NodeHistory.create({
        node_id: node.get('id'),
        conductor: ctx.settings.host,
        user: null,
        severity: error ? 'ERROR' : 'INFO',
        event,
        event_type: options.eventType ?? 'UNKNOWN',
      }),
    );
  } catch (failure) {
    ctx.log.warn(
      `Could not record a history event of node ${String(node.get('uuid'))}: ${(failure as Error).message}`,
    );
  }
}

/**
 * _manage_node_history: for each node this conductor looks after (`conductor_affinity`), the
 * events beyond `node_history_max_entries`, oldest first, counting only those older than
 * `node_history_minimum_days` (as the real query filters before it counts), are deleted node
 * by node until `node_history_cleanup_batch_count` is reached (a node's excess is deleted whole).
 * Returns how many were deleted.
 */
export async function cleanUpNodeHistory(ctx: ConductorContext): Promise<number> {
  const conductorId = ctx.conductorId;
  if (conductorId === undefined) return 0;
  const s = ctx.settings;
  const before =
    s.nodeHistoryMinimumDays > 0
      ? new Date(ctx.store.context.now().getTime() - s.nodeHistoryMinimumDays * 86_400_000)
      : undefined;
  const excess = await ctx.store.nodeHistory.excessForConductor(
    conductorId,
    s.nodeHistoryMaxEntries,
    before,
  );
  let count = 0;
  for (const ids of excess.values()) {
    if (count >= s.nodeHistoryCleanupBatchCount) {
      ctx.log.warn(
        'While cleaning up node history records, we reached the maximum number of records permitted in a single batch. If this error is repeated, consider tuning node history configuration options to be more aggressive by increasing frequency and lowering the number of entries to be deleted to not negatively impact performance.',
      );
      break;
    }
    await ctx.store.nodeHistory.delete(ids);
    count += ids.length;
  }
  return count;
}
