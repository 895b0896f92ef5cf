/**
 * The RPC methods that talk to the node's management and network interfaces at once (no
 * background work): boot devices through the fake management interface (only PXE, nothing
 * remembered, as the real fake), VIFs through the noop network interface (accepted and
 * forgotten, as the real noop does: the list stays empty).
 */
import type { ConductorContext } from './conductor-context.ts';
import { withNodeTask } from './node-task.ts';

export async function setBootDevice(
  ctx: ConductorContext,
  nodeId: string,
  device: string,
  persistent = false,
): Promise<void> {
  void persistent; // the fake management interface ignores it, as the real one
  await withNodeTask(ctx, nodeId, { purpose: 'setting boot device' }, async (task) => {
    task.driver.validate('management');
    await task.driver.setBootDevice(device);
  });
}

export async function getBootDevice(
  ctx: ConductorContext,
  nodeId: string,
): Promise<{ boot_device: string; persistent: boolean }> {
  return withNodeTask(ctx, nodeId, { purpose: 'getting boot device' }, async (task) => {
    task.driver.validate('management');
    return task.driver.getBootDevice();
  });
}

export async function getSupportedBootDevices(
  ctx: ConductorContext,
  nodeId: string,
): Promise<string[]> {
  const purpose = 'getting supported boot devices';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, async (task) => [
    ...task.driver.supportedBootDevices(),
  ]);
}

export async function vifList(ctx: ConductorContext, nodeId: string): Promise<{ id: string }[]> {
  return withNodeTask(ctx, nodeId, { shared: true, purpose: 'list vifs' }, async (task) => {
    task.driver.validate('network');
    return task.driver.vifList();
  });
}

export async function vifAttach(
  ctx: ConductorContext,
  nodeId: string,
  vifInfo: Record<string, unknown>,
): Promise<void> {
  void vifInfo;
  await withNodeTask(ctx, nodeId, { purpose: 'attach vif' }, async (task) => {
    task.driver.validate('network');
  });
}

export async function vifDetach(
  ctx: ConductorContext,
  nodeId: string,
  vifId: string,
): Promise<void> {
  void vifId;
  await withNodeTask(ctx, nodeId, { purpose: 'detach vif' }, async (task) => {
    task.driver.validate('network');
  });
}
