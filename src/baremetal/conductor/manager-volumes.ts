/**
 * The RPC methods on volume connectors and targets (RPC 1.4): each under the reservation of its
 * node, and only while the node is powered off, as the real manager's update_volume_connector,
 * update_volume_target, destroy_volume_connector and destroy_volume_target (400
 * InvalidStateRequested naming the action otherwise). Creation is the API's own write, as in
 * Ironic.
 */
import { pythonRepr } from '../../python-compat/index.ts';
import { InvalidStateRequestedError } from '../common/errors.ts';
import type { VolumeConnectorObject, VolumeTargetObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';

const POWER_OFF = 'power off';

function requirePoweredOff(task: NodeTask, action: string): void {
  const state = task.node.get('power_state');
  if (state !== POWER_OFF) {
    const shown = typeof state === 'string' ? state : pythonRepr(state);
    throw new InvalidStateRequestedError(action, task.uuid, shown);
  }
}

export function updateVolumeConnector(
  ctx: ConductorContext,
  connector: VolumeConnectorObject,
): Promise<VolumeConnectorObject> {
  const purpose = 'volume connector update';
  return withNodeTask(ctx, Number(connector.get('node_id')), { purpose }, async (task) => {
    requirePoweredOff(task, purpose);
    return ctx.store.volumeConnectors.save(connector);
  });
}

export async function destroyVolumeConnector(
  ctx: ConductorContext,
  connector: VolumeConnectorObject,
): Promise<void> {
  const purpose = 'volume connector deletion';
  await withNodeTask(ctx, Number(connector.get('node_id')), { purpose }, async (task) => {
    requirePoweredOff(task, purpose);
    await ctx.store.volumeConnectors.destroy(String(connector.get('uuid')));
  });
}

export function updateVolumeTarget(
  ctx: ConductorContext,
  target: VolumeTargetObject,
): Promise<VolumeTargetObject> {
  const purpose = 'volume target update';
  return withNodeTask(ctx, Number(target.get('node_id')), { purpose }, async (task) => {
    requirePoweredOff(task, purpose);
    return ctx.store.volumeTargets.save(target);
  });
}

export async function destroyVolumeTarget(
  ctx: ConductorContext,
  target: VolumeTargetObject,
): Promise<void> {
  const purpose = 'volume target deletion';
  await withNodeTask(ctx, Number(target.get('node_id')), { purpose }, async (task) => {
    requirePoweredOff(task, purpose);
    await ctx.store.volumeTargets.destroy(String(target.get('uuid')));
  });
}
