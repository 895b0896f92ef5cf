/**
 * The RPC methods on volume connectors and targets (RPC 1.4): each under the reservation of its
 * node, and only while the node is powered off, as the real manager's update_volume_connector,
 * update_volume_target, destroy_volume_connector and destroy_volume_target (400
 * InvalidStateRequested naming the action otherwise). Creation is the API's own write, as in
 * Ironic.
 *
 * An update may carry `expected_values`, the fields the API computed it from as it read them
 * (Baton's, as update_node's): under the reservation, which every other update of the volume
 * holds too, a field that no longer has that value refuses it (VolumeChanged) and the API
 * applies the PATCH again to a new read, so that no acknowledged PATCH is lost.
 */
import type { VersionedObject } from '../../objects/index.ts';
import { pythonRepr } from '../../python-compat/index.ts';
import { InvalidStateRequestedError, VolumeChangedError } from '../common/errors.ts';
import type { VolumeConnectorObject, VolumeTargetObject } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import { type NodeTask, withNodeTask } from './node-task.ts';
import { sameFieldValue } from './node-update-check.ts';

const POWER_OFF = 'power off';

function requirePoweredOff(task: NodeTask, action: string): void {
  const state = task.node.get('power_state');
  if (state !== POWER_OFF) {
    const shown = typeof state === 'string' ? state : pythonRepr(state);
    throw new InvalidStateRequestedError(action, task.uuid, shown);
  }
}

/** The fields of `expected` the stored volume no longer has as the API read them. */
function changedSinceRead(
  stored: VersionedObject,
  expected: Readonly<Record<string, unknown>>,
): string[] {
  const fields = new Set<string>(stored.type.fieldNames);
  return Object.entries(expected)
    .filter(
      ([field, value]) => fields.has(field) && !sameFieldValue(stored.peek(field as never), value),
    )
    .map(([field]) => field);
}

async function checkUnchanged(
  read: () => Promise<VersionedObject>,
  uuid: string,
  expected: Readonly<Record<string, unknown>> | undefined,
): Promise<void> {
  if (expected === undefined) return;
  const changed = changedSinceRead(await read(), expected);
  if (changed.length > 0) throw new VolumeChangedError(uuid, changed);
}

export function updateVolumeConnector(
  ctx: ConductorContext,
  connector: VolumeConnectorObject,
  expected?: Readonly<Record<string, unknown>>,
): Promise<VolumeConnectorObject> {
  const purpose = 'volume connector update';
  const uuid = String(connector.get('uuid'));
  return withNodeTask(ctx, Number(connector.get('node_id')), { purpose }, async (task) => {
    requirePoweredOff(task, purpose);
    await checkUnchanged(() => ctx.store.volumeConnectors.get(uuid), uuid, expected);
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
  expected?: Readonly<Record<string, unknown>>,
): Promise<VolumeTargetObject> {
  const purpose = 'volume target update';
  const uuid = String(target.get('uuid'));
  return withNodeTask(ctx, Number(target.get('node_id')), { purpose }, async (task) => {
    requirePoweredOff(task, purpose);
    await checkUnchanged(() => ctx.store.volumeTargets.get(uuid), uuid, expected);
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
