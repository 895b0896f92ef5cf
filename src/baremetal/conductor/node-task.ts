/**
 * A unit of work on one node (Ironic's TaskManager). An exclusive task holds the node's
 * reservation (`nodes.reservation = <host>`, taken atomically by the store), waiting as long
 * as `[conductor] node_locked_retry_attempts` tries `node_locked_retry_interval` apart take
 * (trying every 50 ms meanwhile) before NodeLocked (409) reaches the caller; a shared task
 * takes no reservation and only reads.
 *
 * A task carries its node's driver, composed from the node's hardware type and interface
 * fields by the conductor's DriverFactory; a node whose interfaces this conductor cannot give
 * it (not enabled, not supported by its hardware type) cannot be acted on, with the real 400.
 *
 * A task may hand the rest of its work to the worker pool (`spawnAfter`): when the RPC method
 * ends, the work starts in the background holding the reservation, and the reservation is
 * released when it finishes. If the pool is full, the spawn-error hook puts the node back as
 * it was and NoFreeConductorWorker (503) goes to the caller. A background failure that set
 * no last_error is recorded as the real "Async execution of … failed" message.
 */
import { isDatabaseUnavailable } from '../../db/index.ts';
import { InvalidStateRequestedError, NodeLockedError, NotFoundError } from '../common/errors.ts';
import {
  applyProvisionEvent,
  InvalidTransitionError,
  type ProvisionEvent,
  type ProvisionState,
} from '../common/provision-states.ts';
import type { BiosSettingRows } from '../drivers/base-interface.ts';
import type { NodeDriver } from '../drivers/node-driver.ts';
import type { NodeObject, PortObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import { nodePowerAction } from './power-action.ts';

export interface AcquireOptions {
  /** A shared task takes no reservation (read-only or harmless operations). */
  readonly shared?: boolean;
  /** Why the node is taken (for logs). */
  readonly purpose: string;
  /** Retry a locked node (default true); false: one attempt. */
  readonly retry?: boolean;
  /**
   * Compose the node's driver (default true). Updating and deleting a node do without, so
   * that a node whose driver is broken can still be fixed or removed, as in the real one.
   */
  readonly loadDriver?: boolean;
  /**
   * Run the task's work (`spawnAfter`, processEvent's `work`) in this call, holding the
   * reservation, rather than in the worker pool: periodic tasks, which bound their own
   * concurrency and must not have a full pool put a node they failed back where it was.
   */
  readonly inlineWork?: boolean;
}

/** Background work of a task, named as the real function for the last_error it may write. */
export interface SpawnedWork {
  readonly name: string;
  readonly run: (task: NodeTask) => Promise<void>;
}

export interface ProcessEventOptions {
  /** The stable state to head for instead of the machine's (a manual clean: manageable). */
  readonly target?: ProvisionState | null;
  /** last_error to set with the transition (cleared when work follows, unless given). */
  readonly lastError?: string | null;
  /** Work that continues in the background after the method returns. */
  readonly work?: SpawnedWork;
  /** On a full pool, put the node back where it was (Ironic's provisioning_error_handler). */
  readonly revertOnNoWorker?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often a reservation held by another conductor is tried again, within the patience. */
const LOCK_POLL_MS = 50;

export class NodeTask {
  readonly ctx: ConductorContext;
  readonly shared: boolean;
  readonly purpose: string;
  readonly inlineWork: boolean;
  node: NodeObject;
  readonly #driver: NodeDriver | undefined;
  #work: SpawnedWork | undefined;
  #onSpawnError: (() => Promise<void>) | undefined;
  /** Hands the node to the next task of this conductor waiting for it (common/turns.ts). */
  #leaveTurn: () => void = () => {};

  private constructor(
    ctx: ConductorContext,
    node: NodeObject,
    shared: boolean,
    options: AcquireOptions,
  ) {
    this.ctx = ctx;
    this.node = node;
    this.shared = shared;
    this.purpose = options.purpose;
    this.inlineWork = options.inlineWork === true;
    this.#driver = options.loadDriver === false ? undefined : ctx.drivers.driverFor(node);
  }

  /** The node's driver (build_driver_for_task). */
  get driver(): NodeDriver {
    if (this.#driver === undefined) {
      throw new Error(`the task on node ${this.uuid} (${this.purpose}) has no driver loaded`);
    }
    return this.#driver;
  }

  get uuid(): string {
    return String(this.node.get('uuid'));
  }

  /** The node's BIOS setting rows, for its BIOS interface (DriverTask). */
  get biosSettings(): BiosSettingRows {
    const store = this.ctx.store.biosSettings;
    const nodeId = () => Number(this.node.get('id'));
    return {
      list: () => store.list(nodeId()),
      create: (settings) => store.create(settings),
      update: (settings) => store.update(settings),
      delete: (names) => store.delete(nodeId(), names),
    };
  }

  /** The node's ports (DriverTask), as they are in the database now. */
  async ports(): Promise<PortObject[]> {
    return this.ctx.store.ports.list({ filters: { node_id: Number(this.node.get('id')) } });
  }

  /** node_power_action on this task's node (DriverTask). */
  powerAction(state: 'power on' | 'power off'): Promise<void> {
    return nodePowerAction(this, state);
  }

  get provisionState(): ProvisionState {
    return this.node.get('provision_state') as ProvisionState;
  }

  /** Takes the node (by id or uuid): reserved unless shared. NodeNotFound, NodeLocked. */
  static async acquire(
    ctx: ConductorContext,
    nodeId: string | number,
    options: AcquireOptions,
  ): Promise<NodeTask> {
    if (options.shared) {
      return new NodeTask(ctx, await ctx.store.nodes.get(nodeId), true, options);
    }
    const attempts =
      options.retry === false ? 1 : Math.max(1, ctx.settings.nodeLockedRetryAttempts);
    const leaveTurn = await NodeTask.#turn(ctx, nodeId, attempts);
    // Ironic's patience: `attempts` tries `interval` apart. A reservation another conductor
    // holds is let go within milliseconds of the node reaching its state (its task saves,
    // then releases), so within that same patience it is tried again every LOCK_POLL_MS: a
    // client's next verb sent as soon as it saw the state waited a whole second otherwise
    // (the rehearsal's slowest requests while conductors hand nodes over).
    const intervalMs = ctx.settings.nodeLockedRetryInterval * 1000;
    const deadline = Date.now() + (attempts - 1) * intervalMs;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const node = await ctx.reservations.reserve(nodeId, () =>
            ctx.store.reservations.reserve(ctx.settings.host, nodeId),
          );
          return await NodeTask.#reserved(ctx, node, options, leaveTurn);
        } catch (error) {
          if (!(error instanceof NodeLockedError)) throw error;
          const left = deadline - Date.now();
          if (attempt >= attempts && left <= 0) throw error;
          await sleep(Math.max(0, Math.min(LOCK_POLL_MS, intervalMs, left)));
        }
      }
    } catch (error) {
      leaveTurn();
      throw error;
    }
  }

  /**
   * The node's turn among this conductor's tasks (common/turns.ts), waited for as long as the
   * reservation would be polled; NodeLocked naming this conductor when it does not come. A node
   * named by its database id (ports name their node so) is not queued: its reservation is
   * polled as before.
   */
  static async #turn(
    ctx: ConductorContext,
    nodeId: string | number,
    attempts: number,
  ): Promise<() => void> {
    if (typeof nodeId !== 'string') return () => {};
    const waitMs = (attempts - 1) * ctx.settings.nodeLockedRetryInterval * 1000;
    const leave = await ctx.turns.take(nodeId, waitMs);
    if (leave === undefined) throw new NodeLockedError(nodeId, ctx.settings.host);
    return leave;
  }

  /** The task on a node just reserved; the reservation goes if the driver cannot be composed. */
  static async #reserved(
    ctx: ConductorContext,
    node: NodeObject,
    options: AcquireOptions,
    leaveTurn: () => void,
  ): Promise<NodeTask> {
    try {
      const task = new NodeTask(ctx, node, false, options);
      task.#leaveTurn = leaveTurn;
      return task;
    } catch (error) {
      const refused = new NodeTask(ctx, node, false, { ...options, loadDriver: false });
      refused.#leaveTurn = leaveTurn;
      await refused.release();
      throw error;
    }
  }

  /**
   * Writes the node's changes (Node.save); the same object then holds the row as stored,
   * as Ironic's does, so code holding `task.node` never works on a stale copy.
   */
  async save(): Promise<void> {
    this.#takeValues(await this.ctx.store.nodes.save(this.node));
  }

  /** Reads the node again (Node.refresh), into the same object. */
  async refresh(): Promise<void> {
    this.#takeValues(await this.ctx.store.nodes.get(this.uuid));
  }

  #takeValues(stored: NodeObject): void {
    stored.forEachSet((name, value) => {
      this.node.assign(name, value);
    });
    this.node.resetChanges();
  }

  /** Upgrades a shared task to an exclusive one (the node is read again). */
  async upgradeLock(): Promise<void> {
    if (!this.shared) return;
    const exclusive = await NodeTask.acquire(this.ctx, this.uuid, {
      purpose: this.purpose,
      loadDriver: false,
    });
    (this as { shared: boolean }).shared = false;
    this.node = exclusive.node;
    this.#leaveTurn = exclusive.#leaveTurn;
  }

  /** Whether the state machine accepts `event` from the node's state. */
  isActionable(event: string): boolean {
    try {
      applyProvisionEvent(this.#position(), event as ProvisionEvent);
      return true;
    } catch (error) {
      if (error instanceof InvalidTransitionError) return false;
      throw error;
    }
  }

  /**
   * Moves the node through the state machine (TaskManager.process_event): the new state and
   * target are saved at once; with `work`, the work is spawned when the method ends.
   * Throws InvalidTransitionError when the machine has no such transition.
   */
  async processEvent(event: ProvisionEvent, options: ProcessEventOptions = {}): Promise<void> {
    const before = this.#position();
    const after = applyProvisionEvent(before, event, {
      ...(options.target ? { target: options.target } : {}),
      followUp: options.work !== undefined,
    });
    if (options.work !== undefined && options.revertOnNoWorker) {
      this.#onSpawnError = async () => {
        this.node.set('provision_state', before.provisionState);
        this.node.set('target_provision_state', before.targetProvisionState);
        // provisioning_error_handler.
        await recordHistory(this.ctx, this.node, 'No free conductor workers available', {
          eventType: HistoryEvent.PROVISIONING,
        });
        await this.save();
      };
    }
    this.node.set('provision_state', after.provisionState);
    this.node.set('target_provision_state', after.targetProvisionState);
    if (options.work !== undefined) {
      this.node.set('last_error', options.lastError ?? null);
      this.#work = options.work;
    } else if (options.lastError !== undefined) {
      this.node.set('last_error', options.lastError);
    }
    await this.save();
    this.ctx.log.info(
      `Node ${this.uuid} moved to provision state "${after.provisionState}" from state "${before.provisionState}"; target provision state is "${after.targetProvisionState ?? 'None'}"`,
    );
  }

  /**
   * processEvent for a user's request: a transition the machine refuses is the real
   * InvalidStateRequested naming `action`.
   */
  async requestEvent(
    event: ProvisionEvent,
    action: string,
    options: ProcessEventOptions = {},
  ): Promise<void> {
    try {
      await this.processEvent(event, options);
    } catch (error) {
      if (error instanceof InvalidTransitionError) {
        throw new InvalidStateRequestedError(action, this.uuid, this.provisionState);
      }
      throw error;
    }
  }

  /** Work to start in the background when the method ends (TaskManager.spawn_after). */
  spawnAfter(work: SpawnedWork, onSpawnError?: () => Promise<void>): void {
    this.#work = work;
    if (onSpawnError !== undefined) this.#onSpawnError = onSpawnError;
  }

  #position() {
    return {
      provisionState: this.node.get('provision_state') as ProvisionState,
      targetProvisionState: this.node.get('target_provision_state') as ProvisionState | null,
    };
  }

  /**
   * Frees the reservation (a node deleted meanwhile is fine). When the database is away the
   * caller does not wait for it: the node is left to the conductor's unsettled reservations,
   * released once the database answers, so a restart of the database leaves no node locked
   * by a live conductor.
   */
  async release(): Promise<void> {
    if (this.shared) return;
    let certain = true;
    try {
      await this.ctx.store.reservations.release(this.ctx.settings.host, this.node.get('id'));
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        certain = false;
        this.ctx.log.warn(
          `could not release node ${this.uuid} (database unavailable: ${String(error)}); it is released once the database answers`,
        );
      } else if (!(error instanceof NotFoundError)) {
        throw error;
      }
    } finally {
      this.ctx.reservations.released(this.uuid, certain);
      this.#leaveTurn();
    }
  }

  /**
   * Ends the method: spawns the work if any (the reservation goes with it), or runs it here
   * (`inlineWork`; its failure recorded as the pool's would be), else releases.
   */
  async finish(): Promise<void> {
    const work = this.#work;
    if (work === undefined) return this.release();
    this.#work = undefined;
    if (this.inlineWork) {
      try {
        await work.run(this);
      } catch (error) {
        await this.#recordFailure(work.name, error);
      } finally {
        await this.release();
      }
      return;
    }
    try {
      this.ctx.pool.spawn(
        async () => {
          try {
            await work.run(this);
          } catch (error) {
            // Recorded while the node is still held: after the release, it could land on the
            // next operation's node.
            await this.#recordFailure(work.name, error);
          } finally {
            await this.release();
          }
        },
        (error) => this.ctx.log.error(`${work.name} on node ${this.uuid}: ${String(error)}`),
      );
    } catch (error) {
      try {
        await this.#onSpawnError?.();
      } finally {
        await this.release();
      }
      throw error;
    }
  }

  async #recordFailure(method: string, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    this.ctx.log.error(`${method} on node ${this.uuid} failed: ${reason}`);
    try {
      const node = await this.ctx.store.nodes.get(this.uuid);
      if (node.get('last_error') !== null) return;
      node.set('last_error', `Async execution of ${method} failed with error: ${reason}`);
      await this.ctx.store.nodes.save(node);
    } catch (saveError) {
      if (!(saveError instanceof NotFoundError)) {
        this.ctx.log.error(`could not record the failure on node ${this.uuid}: ${saveError}`);
      }
    }
  }
}

/** Runs `body` with the node taken, then spawns its work or releases it (`with acquire(...)`). */
export async function withNodeTask<T>(
  ctx: ConductorContext,
  nodeId: string | number,
  options: AcquireOptions,
  body: (task: NodeTask) => Promise<T>,
): Promise<T> {
  const task = await NodeTask.acquire(ctx, nodeId, options);
  let result: T;
  try {
    result = await body(task);
  } catch (error) {
    await task.release();
    throw error;
  }
  await task.finish();
  return result;
}
