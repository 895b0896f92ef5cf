/**
 * The conductor's periodic tasks, each on its own interval and never overlapping itself:
 * the heartbeat (`[conductor] heartbeat_interval`: touch the conductors row), the power state
 * sync (`sync_power_state_interval`), the provision state checks
 * (`check_provision_state_interval`: nodes of dead conductors, nodes left in a state nobody
 * can resume, deploy and clean callbacks timed out), the takeover of active nodes newly mapped
 * here (`sync_local_state_interval`) and of allocations a dead conductor left
 * (`check_allocations_interval`). An interval of 0 turns a task off, as in Ironic.
 */

import { ProvisionState as S } from '../common/provision-states.ts';
import type { ConductorContext } from './conductor-context.ts';
import { cleaningErrorHandler, deployingErrorHandler } from './error-handlers.ts';
import { checkOrphanAllocations } from './manager-allocations.ts';
import { cleanUpNodeHistory } from './node-history.ts';
import { pythonRepr } from './node-info.ts';
import { failIfInState, nodesMappedHere } from './node-sweeps.ts';
import { withNodeTask } from './node-task.ts';
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
 * _sync_power_states: the power state the hardware reports is recorded when the node has
 * none. The fake power interface reports what the node says, so nothing ever differs.
 */
export async function syncPowerStates(ctx: ConductorContext): Promise<void> {
  const nodes = await nodesMappedHere(ctx, { maintenance: false, reserved: false });
  for (const node of nodes) {
    if (ctx.stopping) return;
    const uuid = String(node.get('uuid'));
    if (node.get('target_power_state') !== null) continue;
    await withNodeTask(ctx, uuid, { shared: true, purpose: 'power state sync' }, async (task) => {
      const actual = await task.driver.power.getPowerState(task);
      if (actual === task.node.get('power_state') || actual === null) return;
      await task.upgradeLock();
      task.node.set('power_state', actual);
      await task.save();
    }).catch((error) =>
      ctx.log.warn(`power state sync of node ${uuid}: ${(error as Error).message}`),
    );
  }
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
