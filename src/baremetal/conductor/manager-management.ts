/**
 * The RPC methods that talk to the node's management and network interfaces at once (no
 * background work): boot devices through its management interface, VIFs through its network
 * interface (the fake management offers only PXE and remembers nothing; the noop network
 * accepts VIFs and forgets them, as the real ones do).
 */
import type { BootDevice } from '../drivers/interfaces/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { withNodeTask } from './node-task.ts';

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
