/**
 * The conductor's periodic tasks, each on its own interval and never overlapping itself:
 * the heartbeat (`[conductor] heartbeat_interval`: touch the conductors row), the power state
 * sync (`sync_power_state_interval`) and the recovery of nodes it put in maintenance
 * (`power_failure_recovery_interval`), the provision state checks
 * (`check_provision_state_interval`: nodes of dead conductors, nodes left in a state nobody
 * can resume, deploy and clean callbacks timed out), the takeover of active nodes newly mapped
 * here (`sync_local_state_interval`) and of allocations a dead conductor left
 * (`check_allocations_interval`). An interval of 0 turns a task off, as in Ironic.
 */

import { InvalidParameterError, NodeLockedError, NotFoundError } from '../common/errors.ts';
import { ProvisionState as S } from '../common/provision-states.ts';
import type { ConductorContext } from './conductor-context.ts';
import { cleaningErrorHandler, deployingErrorHandler } from './error-handlers.ts';
import { checkOrphanAllocations } from './manager-allocations.ts';
import { cleanUpNodeHistory, HistoryEvent, recordHistory } from './node-history.ts';
import { pythonRepr } from './node-info.ts';
import { failIfInState, forEachAtMost, nodesMappedHere } from './node-sweeps.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';
import { nodePowerAction } from './power-action.ts';
import { checkOrphanNodes, failTransientStates, syncLocalState } from './takeover.ts';

export interface PeriodicTask {
  readonly name: string;
  /** Seconds between the end of a run and the start of the next; 0: never run. */
  readonly intervalSeconds: number;
  readonly run: () => Promise<void>;
}

/** Runs tasks on their intervals until stopped; `stop` waits for the runs in flight. */
export class PeriodicRunner {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #running = new Set<Promise<void>>();
  #stopped = false;

  readonly tasks: readonly PeriodicTask[];
  readonly onError: (task: string, error: unknown) => void;

  constructor(tasks: readonly PeriodicTask[], onError: (task: string, error: unknown) => void) {
    this.tasks = tasks;
    this.onError = onError;
  }

  start(): void {
    for (const task of this.tasks) {
      if (task.intervalSeconds > 0) this.#schedule(task, task.intervalSeconds * 1000);
    }
  }

  #schedule(task: PeriodicTask, delayMs: number): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      const run = (async () => {
        try {
          await task.run();
        } catch (error) {
          this.onError(task.name, error);
        }
      })();
      this.#running.add(run);
      void run.finally(() => {
        this.#running.delete(run);
        this.#schedule(task, task.intervalSeconds * 1000);
      });
    }, delayMs);
    this.#timers.add(timer);
  }

  /** No more runs; resolves when the runs in flight have ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#running]);
  }
}

/** _check_deploy_timeouts. */
export async function checkDeployTimeouts(ctx: ConductorContext): Promise<void> {
  const timeout = ctx.settings.deployCallbackTimeout;
  if (timeout <= 0) return;
  await failIfInState(
    ctx,
    {
      reserved: false,
      provision_state: S.DEPLOYWAIT,
      maintenance: false,
      provisioned_before: timeout,
    },
    new Set([S.DEPLOYWAIT]),
    {
      sortKey: 'provision_updated_at',
      callback: {
        name: 'cleanup_after_timeout',
        run: (task) =>
          deployingErrorHandler(
            task,
            `Timeout reached while waiting for callback for node ${task.uuid}`,
          ),
      },
    },
  );
}

/** _check_cleanwait_timeouts. */
export async function checkCleanwaitTimeouts(ctx: ConductorContext): Promise<void> {
  const timeout = ctx.settings.cleanCallbackTimeout;
  if (timeout <= 0) return;
  await failIfInState(
    ctx,
    {
      reserved: false,
      provision_state: S.CLEANWAIT,
      maintenance: false,
      provisioned_before: timeout,
    },
    new Set([S.CLEANWAIT]),
    {
      sortKey: 'provision_updated_at',
      keepTargetState: true,
      callback: {
        name: 'cleanup_cleanwait_timeout',
        run: (task) =>
          cleaningErrorHandler(
            task,
            `Timeout reached while cleaning the node. Please check if the ramdisk responsible for the cleaning is running on the node. Failed on step ${pythonRepr(task.node.get('clean_step'))}.`,
            { setFailState: false },
          ),
      },
    },
  );
}

/**
 * Provision states the power state sync leaves alone (SYNC_EXCLUDED_STATES): a ramdisk may be
 * calling back, or the node's power is not yet known to work.
 */
const SYNC_EXCLUDED_STATES: ReadonlySet<string> = new Set([
  S.DEPLOYWAIT,
  S.CLEANWAIT,
  S.ENROLL,
  S.ADOPTFAIL,
]);

/** `fault` of a node the power state sync put in maintenance (faults.POWER_FAILURE). */
export const POWER_FAILURE_FAULT = 'power failure';
const POWER_ERROR = 'error';

/** Each conductor's failed syncs in a row, by node uuid (power_state_sync_count). */
const syncFailures = new WeakMap<ConductorContext, Map<string, number>>();

function failureCounts(ctx: ConductorContext): Map<string, number> {
  let counts = syncFailures.get(ctx);
  if (counts === undefined) {
    counts = new Map();
    syncFailures.set(ctx, counts);
  }
  return counts;
}

/** How many syncs of a node have failed in a row on this conductor (0 after a good one). */
export function powerSyncFailureCount(ctx: ConductorContext, uuid: string): number {
  return failureCounts(ctx).get(uuid) ?? 0;
}

/** The hardware's power state; ERROR is a failure as an exception is (both count). */
async function readPowerState(task: NodeTask, during: string): Promise<string | null> {
  const state = await task.driver.power.getPowerState(task);
  if (state === POWER_ERROR) {
    throw new Error(`Power driver returned ERROR state while trying to ${during} power state.`);
  }
  return state;
}

/**
 * handle_sync_power_state_max_retries_exceeded: the recorded power state becomes the
 * hardware's (None when it could not be read) and the node goes to maintenance, fault
 * `power failure`, with the real text as maintenance_reason.
 */
async function maxRetriesExceeded(
  task: NodeTask,
  actual: string | null,
  error?: unknown,
): Promise<void> {
  const node = task.node;
  const actualText = actual === null ? 'None' : actual;
  const recorded = node.get('power_state');
  let message =
    `During sync_power_state, max retries exceeded for node ${task.uuid}, node state ` +
    `${actualText} does not match expected state '${recorded === null ? 'None' : recorded}'. ` +
    `Updating DB state to '${actualText}' Switching node to maintenance mode.`;
  if (error !== undefined) message += ` Error: ${(error as Error).message}`;
  node.set('power_state', actual);
  // As the real handler: a monitoring error in the node's history, and its last_error.
  await recordHistory(task.ctx, node, message, { eventType: HistoryEvent.MONITORING });
  node.set('maintenance', true);
  node.set('maintenance_reason', message);
  node.set('fault', POWER_FAILURE_FAULT);
  await task.save();
  task.ctx.log.error(message);
}

/**
 * do_sync_power_state: reads the hardware's power state under a shared lock; a difference
 * takes the node exclusively and either sets the hardware to the recorded state
 * (`force_power_state_during_sync`) or records the hardware's. Returns the failures in a row:
 * 0 after a good read, one more after a failed one; past `power_state_sync_max_retries` the
 * node goes to maintenance.
 */
async function doSyncPowerState(task: NodeTask, previous: number): Promise<number> {
  const ctx = task.ctx;
  const maxRetries = ctx.settings.powerStateSyncMaxRetries;
  const count = previous + 1;
  // A node never powered and whose power cannot be validated is not synced.
  if (task.node.get('power_state') === null) {
    try {
      await task.driver.power.validate(task);
    } catch (error) {
      if (error instanceof InvalidParameterError) return 0;
      throw error;
    }
  }
  let actual: string | null;
  try {
    actual = await readPowerState(task, 'sync');
  } catch (error) {
    if (count > maxRetries) {
      await task.upgradeLock();
      await maxRetriesExceeded(task, null, error);
    } else {
      ctx.log.warn(
        `During sync_power_state, could not get power state for node ${task.uuid}, attempt ${count} of ${maxRetries}. Error: ${(error as Error).message}.`,
      );
    }
    return count;
  }
  const same = (recorded: string | null) =>
    (recorded !== null && recorded === actual) || (recorded === null && actual === null);
  if (same(task.node.get('power_state'))) return 0;
  // The node is changed: take it, and check again on what the reservation read.
  await task.upgradeLock();
  const node = task.node;
  const recorded = node.get('power_state') as string | null;
  if (same(recorded)) return 0;
  if (SYNC_EXCLUDED_STATES.has(task.provisionState) || node.get('maintenance')) return 0;
  if (recorded === null) {
    ctx.log.info(
      `During sync_power_state, node ${task.uuid} has no previous known state. Recording current state '${actual}'.`,
    );
    node.set('power_state', actual);
    await task.save();
    return 0;
  }
  if (count > maxRetries) {
    await maxRetriesExceeded(task, actual);
    return count;
  }
  if (ctx.settings.forcePowerStateDuringSync) {
    ctx.log.warn(
      `During sync_power_state, node ${task.uuid} state '${actual}' does not match expected state. Changing hardware state to '${recorded}'.`,
    );
    try {
      await nodePowerAction(task, recorded);
    } catch {
      ctx.log.error(
        `Failed to change power state of node ${task.uuid} to '${recorded}', attempt ${count} of ${maxRetries}.`,
      );
    }
  } else {
    ctx.log.warn(
      `During sync_power_state, node ${task.uuid} state does not match expected state '${recorded}'. Updating recorded state to '${actual}'.`,
    );
    node.set('power_state', actual);
    await task.save();
  }
  return count;
}

/**
 * _sync_power_states: every node mapped here and not in maintenance, the ones failing to
 * answer first, `sync_power_state_workers` (at most `periodic_max_workers`) at a time; a node
 * reserved, in maintenance, in a state excluded above or with a power change under way is
 * skipped, as is one locked or deleted meanwhile.
 */
export async function syncPowerStates(ctx: ConductorContext): Promise<void> {
  const started = performance.now();
  const counts = failureCounts(ctx);
  // The uuids alone, as Ironic's iter_nodes: each node is read again under its lock.
  const nodes = (await nodesMappedHere(ctx, { maintenance: false }, { fields: [] }))
    .map((node) => String(node.get('uuid')))
    .sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
  const workers = Math.min(ctx.settings.syncPowerStateWorkers, ctx.settings.periodicMaxWorkers);
  await forEachAtMost(
    ctx,
    nodes,
    async (uuid) => {
      try {
        await withNodeTask(
          ctx,
          uuid,
          { shared: true, purpose: 'power state sync' },
          async (task) => {
            const node = task.node;
            if (
              SYNC_EXCLUDED_STATES.has(task.provisionState) ||
              node.get('maintenance') ||
              node.get('target_power_state') ||
              node.get('reservation')
            ) {
              return;
            }
            const count = await doSyncPowerState(task, counts.get(uuid) ?? 0);
            if (count > 0) counts.set(uuid, count);
            else counts.delete(uuid);
          },
        );
      } catch (error) {
        if (error instanceof NotFoundError) {
          ctx.log.info(
            `During sync_power_state, node ${uuid} was not found and presumed deleted by another process.`,
          );
        } else if (error instanceof NodeLockedError) {
          ctx.log.info(
            `During sync_power_state, node ${uuid} was already locked by another process. Skip.`,
          );
        } else {
          ctx.log.warn(`power state sync of node ${uuid}: ${(error as Error).message}`);
        }
      }
    },
    workers,
  );
  // Ironic times this task in its metrics (ConductorManager._sync_power_states); here the log
  // says it, so an operator sees whether a sweep fits in sync_power_state_interval.
  const seconds = (performance.now() - started) / 1000;
  ctx.log.info(`Power state sync: ${nodes.length} nodes mapped here, ${seconds.toFixed(2)} s`);
}

/**
 * _power_failure_recovery: a node in maintenance for a power failure whose power state is
 * read again leaves maintenance with that state recorded. Not a node in enroll, reserved or
 * with a power change under way.
 */
export async function powerFailureRecovery(ctx: ConductorContext): Promise<void> {
  const nodes = await nodesMappedHere(ctx, {
    maintenance: true,
    fault: POWER_FAILURE_FAULT,
    reserved: false,
  });
  await forEachAtMost(ctx, nodes, async (found) => {
    const uuid = String(found.get('uuid'));
    try {
      await withNodeTask(
        ctx,
        uuid,
        { shared: true, purpose: 'power failure recovery' },
        async (task) => {
          const node = task.node;
          if (
            task.provisionState === S.ENROLL ||
            !node.get('maintenance') ||
            node.get('fault') !== POWER_FAILURE_FAULT ||
            node.get('target_power_state') ||
            node.get('reservation')
          ) {
            return;
          }
          let actual: string | null;
          try {
            await task.driver.power.validate(task);
            actual = await readPowerState(task, 'get');
          } catch (error) {
            ctx.log.debug?.(
              `During power_failure_recovery, could not get power state for node ${uuid}: ${(error as Error).message}`,
            );
            return;
          }
          await task.upgradeLock();
          task.node.set('power_state', actual);
          task.node.set('maintenance', false);
          task.node.set('maintenance_reason', null);
          task.node.set('fault', null);
          await task.save();
          failureCounts(ctx).delete(uuid);
          ctx.log.info(
            `Node ${uuid} is recovered from power failure with actual power state '${actual}'.`,
          );
        },
      );
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof NodeLockedError) return;
      ctx.log.warn(`power failure recovery of node ${uuid}: ${(error as Error).message}`);
    }
  });
}

/** The periodic tasks of a conductor, on the intervals of its settings. */
export function conductorPeriodicTasks(
  ctx: ConductorContext,
  heartbeat: () => Promise<void>,
): PeriodicTask[] {
  const s = ctx.settings;
  return [
    { name: 'heartbeat', intervalSeconds: s.heartbeatInterval, run: heartbeat },
    {
      name: '_sync_power_states',
      intervalSeconds: s.syncPowerStateInterval,
      run: () => syncPowerStates(ctx),
    },
    {
      name: '_power_failure_recovery',
      intervalSeconds: s.powerFailureRecoveryInterval,
      run: () => powerFailureRecovery(ctx),
    },
    {
      name: '_check_provision_states',
      intervalSeconds: s.checkProvisionStateInterval,
      run: async () => {
        await checkOrphanNodes(ctx);
        await failTransientStates(ctx);
        await checkDeployTimeouts(ctx);
        await checkCleanwaitTimeouts(ctx);
      },
    },
    {
      name: '_sync_local_state',
      intervalSeconds: s.syncLocalStateInterval,
      run: () => syncLocalState(ctx),
    },
    {
      name: '_check_orphan_allocations',
      intervalSeconds: s.checkAllocationsInterval,
      run: () => checkOrphanAllocations(ctx),
    },
    {
      name: 'manage_node_history',
      // Enabled as the real one: a batch count above 0 and a maximum other than 0.
      intervalSeconds:
        s.nodeHistoryCleanupBatchCount > 0 && s.nodeHistoryMaxEntries !== 0
          ? s.nodeHistoryCleanupInterval
          : 0,
      run: async () => {
        try {
          await cleanUpNodeHistory(ctx);
        } catch (error) {
          ctx.log.error(
            `Encountered error while cleaning node history records: ${(error as Error).message}`,
          );
        }
      },
    },
  ];
}
