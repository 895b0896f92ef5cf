/**
 * The RPC methods that talk to the node's management and network interfaces: boot devices,
 * inject NMI and indicators through its management interface, at once; VIFs through its network
 * interface (the fake management offers only PXE and remembers nothing; the noop network
 * accepts VIFs and forgets them, as the real ones do). Boot mode and secure boot changes are
 * background work (Ironic's utils.node_change_boot_mode / node_change_secure_boot): a refusal
 * of the interface is written to last_error, never answered.
 */
import type { BootDevice, SupportedIndicators } from '../drivers/interfaces/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { HistoryEvent, recordHistory } from './node-history.ts';
import { recordError } from './node-info.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';

export async function setBootDevice(
  ctx: ConductorContext,
  nodeId: string,
  device: string,
  persistent = false,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'setting boot device' }, async (task) => {
    const management = task.driver.management;
    await management.validate(task);
    await management.setBootDevice(task, device, persistent);
  });
}

export async function getBootDevice(ctx: ConductorContext, nodeId: string): Promise<BootDevice> {
  return withNodeTask(ctx, nodeId, { purpose: 'getting boot device' }, async (task) => {
    await task.driver.management.validate(task);
    return task.driver.management.getBootDevice(task);
  });
}

export async function getSupportedBootDevices(
  ctx: ConductorContext,
  nodeId: string,
): Promise<string[]> {
  const purpose = 'getting supported boot devices';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, async (task) => [
    ...task.driver.management.supportedBootDevices(task),
  ]);
}

export async function vifList(ctx: ConductorContext, nodeId: string): Promise<{ id: string }[]> {
  return withNodeTask(ctx, nodeId, { shared: true, purpose: 'list vifs' }, async (task) => {
    await task.driver.network.validate(task);
    return task.driver.network.vifList(task);
  });
}

export async function vifAttach(
  ctx: ConductorContext,
  nodeId: string,
  vifInfo: Record<string, unknown>,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'attach vif' }, async (task) => {
    await task.driver.network.validate(task);
    await task.driver.network.vifAttach(task, vifInfo);
  });
}

export async function vifDetach(
  ctx: ConductorContext,
  nodeId: string,
  vifId: string,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'detach vif' }, async (task) => {
    await task.driver.network.validate(task);
    await task.driver.network.vifDetach(task, vifId);
  });
}

export async function injectNmi(ctx: ConductorContext, nodeId: string): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'inject nmi' }, async (task) => {
    await task.driver.management.validate(task);
    await task.driver.management.injectNmi(task);
  });
}

/** Python's str() of the target, as the real messages show it (True, False, uefi). */
function pyText(value: string | boolean): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  return value;
}

/** The spawn-error hook of both (_spawn_error_handler): the node keeps its fields. */
function noWorkerHook(task: NodeTask) {
  return async () => {
    await recordHistory(task.ctx, task.node, 'No free conductor workers available', {
      eventType: HistoryEvent.CONDUCTOR,
    });
    await task.save();
  };
}

export async function changeNodeBootMode(
  ctx: ConductorContext,
  nodeId: string,
  mode: string,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'changing node boot mode' }, async (task) => {
    await task.driver.management.validate(task);
    task.node.set('last_error', null);
    await task.save();
    task.spawnAfter(
      { name: 'node_change_boot_mode', run: (t) => nodeChangeBootMode(ctx, t, mode) },
      noWorkerHook(task),
    );
  });
}

async function nodeChangeBootMode(ctx: ConductorContext, task: NodeTask, mode: string) {
  const management = task.driver.management;
  let current: string | null = null;
  try {
    current = await management.getBootMode(task);
  } catch (error) {
    ctx.log.warn(
      `Unexpected exception when trying to detect boot_mode while changing boot mode for node ${task.uuid}. ${(error as Error).name}: ${(error as Error).message}`,
    );
  }
  if (current !== null && current === mode) return;
  try {
    await management.setBootMode(task, mode);
  } catch (error) {
    // The real text, its missing quote included.
    recordError(task.node, `Failed to change boot mode to '${mode}: ${(error as Error).message}`);
    await task.save();
    return;
  }
  task.node.set('boot_mode', mode);
  await task.save();
}

export async function changeNodeSecureBoot(
  ctx: ConductorContext,
  nodeId: string,
  state: boolean,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'changing node secure' }, async (task) => {
    await task.driver.management.validate(task);
    task.node.set('last_error', null);
    await task.save();
    task.spawnAfter(
      { name: 'node_change_secure_boot', run: (t) => nodeChangeSecureBoot(ctx, t, state) },
      noWorkerHook(task),
    );
  });
}

async function nodeChangeSecureBoot(ctx: ConductorContext, task: NodeTask, state: boolean) {
  const management = task.driver.management;
  let current: boolean | null = null;
  try {
    current = await management.getSecureBootState(task);
  } catch (error) {
    ctx.log.warn(
      `Unexpected exception when trying to detect secure_boot state while changing secure_boot for node ${task.uuid}. ${(error as Error).name}: ${(error as Error).message}`,
    );
  }
  if (current !== null && current === state) return;
  try {
    await management.setSecureBootState(task, state);
  } catch (error) {
    recordError(
      task.node,
      `Failed to change secure_boot state to '${pyText(state)}': ${(error as Error).message}`,
    );
    await task.save();
    return;
  }
  task.node.set('secure_boot', state);
  await task.save();
}

export async function getSupportedIndicators(
  ctx: ConductorContext,
  nodeId: string,
  component?: string,
): Promise<SupportedIndicators> {
  const purpose = 'getting supported indicators';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, async (task) =>
    task.driver.management.supportedIndicators(task, component),
  );
}

export async function getIndicatorState(
  ctx: ConductorContext,
  nodeId: string,
  component: string,
  indicator: string,
): Promise<string> {
  // Exclusive, as the real one takes it (task_manager.acquire's default), for a read.
  return withNodeTask(ctx, nodeId, { purpose: 'getting indicators states' }, async (task) => {
    await task.driver.management.validate(task);
    return task.driver.management.getIndicatorState(task, component, indicator);
  });
}

export async function setIndicatorState(
  ctx: ConductorContext,
  nodeId: string,
  component: string,
  indicator: string,
  state: string,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'setting indicator state' }, async (task) => {
    await task.driver.management.validate(task);
    await task.driver.management.setIndicatorState(task, component, indicator, state);
  });
}
