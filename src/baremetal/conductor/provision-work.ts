/**
 * The background halves of the other provisioning operations, as the real conductor runs
 * them on fake hardware: verifying a node being managed (`verifying` → `manageable`),
 * inspecting (`inspecting` → `manageable`), adopting (`adopting` → `active`, the node taken
 * over by this conductor), rescuing and unrescuing, and the takeover of an active node newly
 * mapped to this conductor. Failures record last_error and move the node to its failed state.
 */
import { UnsupportedDriverExtensionError } from '../common/errors.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import {
  deleteInstanceInfo,
  deleteInternalInfo,
  updateImageType,
  wipeTokenAndUrl,
} from './node-info.ts';
import type { NodeTask } from './node-task.ts';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** verify.do_node_verify: the power credentials work, the power state is learnt. */
export async function doNodeVerify(task: NodeTask): Promise<void> {
  let error: string | undefined;
  let powerState: string | null = null;
  try {
    await task.driver.power.validate(task);
    try {
      powerState = await task.driver.power.getPowerState(task);
    } catch (e) {
      error = `Failed to get power state for node ${task.uuid}. Error: ${message(e)}`;
    }
  } catch (e) {
    error = `Failed to validate power driver interface for node ${task.uuid}. Error: ${message(e)}`;
  }
  if (error !== undefined) {
    await recordHistory(task.ctx, task.node, error, { eventType: HistoryEvent.VERIFY });
    await task.processEvent('fail');
    return;
  }
  await cacheVendor(task);
  if (powerState !== task.node.get('power_state')) task.node.set('power_state', powerState);
  await task.processEvent('done');
}

/** A management interface that can tell the hardware's vendor (the real `detect_vendor`). */
interface DetectsVendor {
  detectVendor(task: NodeTask): Promise<string | null>;
}

/**
 * utils.node_cache_vendor: once verified, a node whose properties name no vendor gets the one
 * its management interface detects (ipmitool: `mc info`'s manufacturer); a failure only warns.
 */
async function cacheVendor(task: NodeTask): Promise<void> {
  const properties = (task.node.get('properties') ?? {}) as Record<string, unknown>;
  if (properties.vendor) return;
  const management = task.driver.management as Partial<DetectsVendor>;
  if (typeof management.detectVendor !== 'function') return;
  let vendor: string | null;
  try {
    vendor = await management.detectVendor(task);
  } catch (e) {
    if (e instanceof UnsupportedDriverExtensionError) return;
    task.ctx.log.warn(
      `Unexpected exception when trying to detect vendor for node ${task.uuid}. ${(e as Error).name}: ${message(e)}`,
    );
    return;
  }
  if (!vendor) return;
  task.node.set('properties', { ...properties, vendor });
  task.ctx.log.info(`Detected vendor ${vendor} for node ${task.uuid}`);
}

/** manager._do_inspect_hardware. */
export async function doInspectHardware(task: NodeTask): Promise<void> {
  wipeTokenAndUrl(task.node);
  let next: string;
  try {
    next = await task.driver.inspect.inspectHardware(task);
  } catch (e) {
    await recordHistory(task.ctx, task.node, message(e), {
      eventType: HistoryEvent.INTROSPECTION,
    });
    await task.processEvent('fail');
    throw e;
  }
  await task.processEvent(next === 'inspect wait' ? 'wait' : 'done');
}

/**
 * manager._do_takeover: this conductor now looks after the node, and its console session when
 * the console is enabled (a console that cannot be started is turned off, the reason in
 * last_error).
 */
export async function doTakeover(task: NodeTask): Promise<void> {
  await task.driver.deploy.prepare(task);
  await task.driver.deploy.takeOver(task);
  if (task.node.get('console_enabled')) {
    try {
      await task.driver.console.startConsole(task);
    } catch (e) {
      await recordHistory(
        task.ctx,
        task.node,
        `Failed to start console while taking over the node ${task.uuid}: ${message(e)}.`,
        { eventType: HistoryEvent.TAKEOVER },
      );
      task.node.set('console_enabled', false);
    }
  }
  const conductorId = task.ctx.conductorId;
  if (conductorId !== undefined) task.node.set('conductor_affinity', conductorId);
  await task.save();
}

/** manager._do_adoption. */
export async function doAdoption(task: NodeTask): Promise<void> {
  try {
    updateImageType(task.node);
    await doTakeover(task);
    await task.processEvent('done');
  } catch (e) {
    task.node.set('power_state', null);
    await recordHistory(
      task.ctx,
      task.node,
      `Error while attempting to adopt node ${task.uuid}: ${message(e)}.`,
      { eventType: HistoryEvent.ADOPTION },
    );
    await task.processEvent('fail');
  }
}

/** utils.remove_node_rescue_password. */
export function removeRescuePassword(task: NodeTask): void {
  deleteInstanceInfo(task.node, 'rescue_password', 'hashed_rescue_password');
}

/** manager._do_node_rescue. */
export async function doNodeRescue(task: NodeTask): Promise<void> {
  let next: string;
  try {
    next = await task.driver.rescue.rescue(task);
  } catch (e) {
    removeRescuePassword(task);
    await recordHistory(task.ctx, task.node, `Failed to rescue: ${message(e)}`, {
      eventType: HistoryEvent.RESCUE,
    });
    await task.processEvent('fail');
    throw e;
  }
  await task.processEvent(next === 'rescue wait' ? 'wait' : 'done');
}

/** manager._do_node_unrescue. */
export async function doNodeUnrescue(task: NodeTask): Promise<void> {
  try {
    await task.driver.rescue.unrescue(task);
  } catch (e) {
    await recordHistory(task.ctx, task.node, `Failed to unrescue: ${message(e)}`, {
      eventType: HistoryEvent.RESCUE,
    });
    await task.processEvent('fail');
    throw e;
  }
  wipeTokenAndUrl(task.node);
  await task.processEvent('done');
}

/** manager._do_node_rescue_abort. */
export async function doNodeRescueAbort(task: NodeTask): Promise<void> {
  try {
    await task.driver.rescue.cleanUp(task);
  } catch {
    const error = 'Failed to clean up rescue after aborting the operation';
    await task.refresh();
    await recordHistory(task.ctx, task.node, error, { eventType: HistoryEvent.RESCUE });
    task.node.set('maintenance', true);
    task.node.set('maintenance_reason', error);
    task.node.set('fault', 'rescue abort failure');
    await task.save();
    return;
  }
  // Not an error: the operation was aborted and the node returned to normal operation.
  await recordHistory(task.ctx, task.node, 'By request, the rescue operation was aborted.', {
    eventType: HistoryEvent.RESCUE,
    error: false,
  });
  await task.refresh();
  deleteInternalInfo(task.node, 'agent_url');
  await task.save();
}

/**
 * manager._do_abort in `inspect wait`: the inspect interface stops the inspection (the fake
 * and no-inspect ones cannot: UnsupportedDriverExtension reaches the caller), then the node
 * moves on with the real last_error.
 */
export async function abortInspection(task: NodeTask): Promise<void> {
  try {
    await task.driver.inspect.abort(task);
  } catch (e) {
    if (!(e instanceof UnsupportedDriverExtensionError)) {
      await recordHistory(task.ctx, task.node, `Failed to abort inspection: ${message(e)}`, {
        eventType: HistoryEvent.INTROSPECTION,
      });
      await task.save();
    }
    throw e;
  }
  await recordHistory(task.ctx, task.node, 'Inspection was aborted by request.', {
    eventType: HistoryEvent.INTROSPECTION,
  });
  wipeTokenAndUrl(task.node);
  await task.processEvent('abort');
}
