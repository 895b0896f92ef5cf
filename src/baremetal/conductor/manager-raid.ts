/**
 * The RPC methods of RAID configuration (ConductorManager.set_target_raid_config and
 * get_raid_logical_disk_properties, Baton's RPC 1.4): a target RAID configuration checked by
 * the node's RAID interface (unless empty: an operator unsets it with `{}`) and stored under
 * the node's exclusive lock; the logical disk properties of a hardware type's default RAID
 * interface.
 */
import type { ConductorContext } from './conductor-context.ts';
import { withNodeTask } from './node-task.ts';

export async function setTargetRaidConfig(
  ctx: ConductorContext,
  nodeId: string,
  config: Record<string, unknown>,
): Promise<void> {
  const purpose = 'setting target RAID config';
  await withNodeTask(ctx, nodeId, { purpose }, async (task) => {
    if (Object.keys(config).length > 0) await task.driver.raid.validateRaidConfig(task, config);
    task.node.set('target_raid_config', config);
    await task.save();
  });
}

export async function getRaidLogicalDiskProperties(
  ctx: ConductorContext,
  driverName: string,
): Promise<Record<string, string>> {
  const type = ctx.drivers.hardwareType(driverName);
  const raid = ctx.drivers.getInterface(type, 'raid', ctx.drivers.defaultInterface(type, 'raid'));
  return raid.logicalDiskProperties();
}
