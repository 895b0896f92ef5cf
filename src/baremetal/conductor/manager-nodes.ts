/**
 * The RPC methods on the node record itself, as the real manager has them: create (the
 * interfaces checked and defaulted for the hardware type by the conductor's DriverFactory),
 * update (the real checks on
 * protection, retirement, interfaces and resource class by state, under the node's
 * reservation), destroy (refused where the real one refuses), validate, and traits.
 */

import {
  InvalidParameterError,
  InvalidStateError,
  NodeAssociatedError,
  NodeChangedError,
  NodeProtectedError,
  NodeTraitNotFoundError,
} from '../common/errors.ts';
import { ProvisionState as S, STATE_GROUPS } from '../common/provision-states.ts';
import { INTERFACE_KINDS, interfaceField } from '../drivers/interface-kinds.ts';
import { type ValidationResults, validateInterfaces } from '../drivers/node-validation.ts';
import type { NodeObject } from '../objects/index.ts';
import { releaseAllocationOnInstanceRemoval } from './allocation-cleanup.ts';
import type { ConductorContext } from './conductor-context.ts';
import { validateDeployStepsAndTemplates, validateInstanceInfoTraits } from './deploy-templates.ts';
import { pythonRepr } from './node-info.ts';
import { withNodeTask } from './node-task.ts';
import { fieldsChangedSince, mergeKeys } from './node-update-check.ts';

/** The states in which a node's interfaces (and resource class) may change. */
const UPDATE_ALLOWED_STATES = [S.ENROLL, S.INSPECTING, S.INSPECTWAIT, S.MANAGEABLE, S.AVAILABLE];

export async function createNode(ctx: ConductorContext, node: NodeObject): Promise<NodeObject> {
  ctx.drivers.checkAndUpdateNodeInterfaces(node);
  return ctx.store.nodes.create(node);
}

function checkUpdateProtected(node: NodeObject, delta: ReadonlySet<string>): void {
  if (delta.has('protected')) {
    if (!node.get('protected')) {
      node.set('protected_reason', null);
    } else if (![S.ACTIVE, S.RESCUE].includes(node.get('provision_state') as never)) {
      throw new InvalidStateError(
        `Node ${node.get('uuid')} can only be made protected in provision states 'active' or 'rescue', the current state is '${node.get('provision_state')}'`,
      );
    }
  }
  if (delta.has('protected_reason') && node.get('protected_reason') && !node.get('protected')) {
    throw new InvalidParameterError(
      'The protected_reason field can only be set when protected is True',
    );
  }
}

function checkUpdateRetired(node: NodeObject, delta: ReadonlySet<string>): void {
  if (delta.has('retired')) {
    if (!node.get('retired')) {
      node.set('retired_reason', null);
    } else if (node.get('provision_state') === S.AVAILABLE) {
      throw new InvalidStateError(
        `Node ${node.get('uuid')} can not have 'retired' set in provision state 'available', the current state is '${node.get('provision_state')}'`,
      );
    }
  }
  if (delta.has('retired_reason') && node.get('retired_reason') && !node.get('retired')) {
    throw new InvalidParameterError(
      'The retired_reason field can only be set when retired is True',
    );
  }
}

/** What the API read and how it changed the node (RPC 1.2; node-update-check.ts). */
export interface UpdateCheck {
  /** The values read of every field the change was computed from. */
  readonly expectedValues: Readonly<Record<string, unknown>>;
  /** Dictionary fields the change set key by key, which may be merged with others' keys. */
  readonly keyedFields?: readonly string[];
}

/**
 * update_node: the real checks on the change as the API sent it, then, under the node's
 * reservation, the change applied to the node as it is now. With a `check` (the API's read of
 * what the change was computed from, RPC 1.2) the change is applied only if every field it was
 * computed from or writes still holds the value read (or, for a dictionary changed key by key,
 * if its keys were left alone), else NodeChanged (409), which the API answers by reading the
 * node and applying the request again (node-update-check.ts). Without one (an older API) it
 * is applied as it comes.
 */
export async function updateNode(
  ctx: ConductorContext,
  node: NodeObject,
  resetInterfaces = false,
  check?: UpdateCheck,
): Promise<NodeObject> {
  const uuid = String(node.get('uuid'));
  // What the API read, for the fields derived below from the request.
  const received = node.clone();
  const requested = new Set<string>(node.changedFields());
  if (requested.has('maintenance') && !node.get('maintenance')) {
    node.set('maintenance_reason', null);
    node.set('fault', null);
  }
  checkUpdateProtected(node, requested);
  checkUpdateRetired(node, requested);
  const allowed = UPDATE_ALLOWED_STATES as readonly string[];
  const updatingDriver = requested.has('driver');
  let checkInterfaces = updatingDriver;
  for (const kind of INTERFACE_KINDS) {
    const field = interfaceField(kind);
    if (!requested.has(field)) {
      if (updatingDriver && resetInterfaces) node.set(field, null);
      continue;
    }
    if (!(allowed.includes(String(node.get('provision_state'))) || node.get('maintenance'))) {
      throw new InvalidStateError(
        `Node ${uuid} can not have ${field} updated unless it is in one of allowed (${allowed.join(', ')}) states or in maintenance mode.`,
      );
    }
    checkInterfaces = true;
  }
  if (checkInterfaces) ctx.drivers.checkAndUpdateNodeInterfaces(node);
  const delta = [...node.changedFields()];
  // Without the driver: a node whose driver is broken must still be fixable.
  const options = { purpose: 'node update', loadDriver: false };
  return withNodeTask(ctx, uuid, options, async (task) => {
    const current = task.node;
    if (check !== undefined) {
      // Interfaces were checked against the request's instance_info: no merging then.
      const keyed = new Set(checkInterfaces ? [] : (check.keyedFields ?? []));
      const base: Record<string, unknown> = {};
      for (const field of delta) base[field] = received.peek(field as never) ?? null;
      Object.assign(base, check.expectedValues);
      const conflicts: string[] = [];
      const merges: string[] = [];
      for (const field of fieldsChangedSince(current, base)) {
        const merged = keyed.has(field)
          ? mergeKeys(base[field], node.peek(field as never), current.peek(field as never))
          : undefined;
        if (merged === undefined) conflicts.push(field);
        else {
          node.assign(field, merged);
          merges.push(field);
        }
      }
      if (conflicts.length > 0) {
        ctx.log.info(`update of node ${uuid} refused: ${conflicts.join(', ')} changed since read`);
        throw new NodeChangedError(uuid, conflicts);
      }
      if (merges.length > 0) {
        ctx.log.info(`update of node ${uuid} merged with other keys of ${merges.join(', ')}`);
      }
    }
    if (
      requested.has('instance_uuid') &&
      node.get('instance_uuid') &&
      current.get('instance_uuid')
    ) {
      throw new NodeAssociatedError(uuid, String(current.get('instance_uuid')));
    }
    if (
      requested.has('resource_class') &&
      current.get('resource_class') &&
      !allowed.includes(String(current.get('provision_state')))
    ) {
      throw new InvalidStateError(
        `Node ${uuid} can not have resource_class updated unless it is in one of allowed (${allowed.join(', ')}) states.`,
      );
    }
    if (delta.includes('instance_uuid') && current.get('allocation_id') !== null) {
      await releaseAllocationOnInstanceRemoval(ctx, current, node, allowed);
      // Deleting the allocation wrote the node (allocation_id, instance_uuid): read it again.
      await task.refresh();
    }
    // The change goes onto the node as read under the reservation: only its fields are written.
    for (const field of delta) task.node.assign(field, node.peek(field as never) ?? null);
    await task.save();
    return task.node;
  });
}

export async function destroyNode(ctx: ConductorContext, nodeId: string): Promise<void> {
  const options = { purpose: 'node deletion', loadDriver: false };
  await withNodeTask(ctx, nodeId, options, async (task) => {
    const node = task.node;
    const maintenance = Boolean(node.get('maintenance'));
    if (!maintenance && node.get('instance_uuid') !== null) {
      throw new NodeAssociatedError(task.uuid, String(node.get('instance_uuid')));
    }
    if (node.get('protected')) throw new NodeProtectedError(task.uuid);
    const allowed: string[] = [...STATE_GROUPS.deleteAllowed];
    if (ctx.settings.allowDeletingAvailableNodes) allowed.push(S.AVAILABLE);
    if (!maintenance && !allowed.includes(task.provisionState)) {
      // The real message prints the states as a Python tuple.
      const tuple = pythonRepr(allowed).replace(/^\[/, '(').replace(/\]$/, ')');
      throw new InvalidStateError(
        `Can not delete node "${task.uuid}" while it is in provision state "${task.provisionState}". Valid provision states to perform deletion are: "${tuple}", or set the node into maintenance mode`,
      );
    }
    if (node.get('console_enabled')) node.set('console_enabled', false);
    await ctx.store.nodes.destroy(task.uuid);
  });
}

export async function validateDriverInterfaces(
  ctx: ConductorContext,
  nodeId: string,
): Promise<ValidationResults> {
  const purpose = 'driver interface validation';
  return withNodeTask(ctx, nodeId, { shared: true, purpose }, (task) =>
    validateInterfaces(task.driver, task, ctx.settings.host, async () => {
      validateInstanceInfoTraits(task.node);
      await validateDeployStepsAndTemplates(ctx, task.node, task.driver);
    }),
  );
}

export async function addNodeTraits(
  ctx: ConductorContext,
  nodeId: string,
  traits: readonly string[],
  replace = false,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'add node traits' }, async (task) => {
    const id = task.node.get('id');
    if (replace) {
      await ctx.store.traits.set(id, traits);
      return;
    }
    for (const trait of traits) await ctx.store.traits.add(id, trait);
  });
}

export async function removeNodeTraits(
  ctx: ConductorContext,
  nodeId: string,
  traits?: readonly string[] | null,
): Promise<void> {
  await withNodeTask(ctx, nodeId, { purpose: 'remove node traits' }, async (task) => {
    const id = task.node.get('id');
    if (traits === undefined || traits === null) {
      await ctx.store.traits.unset(id);
      return;
    }
    for (const trait of traits) {
      try {
        await ctx.store.traits.remove(id, trait);
      } catch (error) {
        // Reported with the node's UUID, as the API named it.
        if (error instanceof NodeTraitNotFoundError)
          throw new NodeTraitNotFoundError(task.uuid, trait);
        throw error;
      }
    }
  });
}
