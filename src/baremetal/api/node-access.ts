/**
 * The node checks that need the request's body (the nodes controller's post and patch) and
 * what a node's view hides from a caller below `filter_threshold` (node_sanitize). Nothing is
 * checked or hidden under `noauth`.
 */
import type { FastifyRequest } from 'fastify';
import { isInterfaceKind } from '../drivers/interface-kinds.ts';
import type { NodeObject } from '../objects/index.ts';
import { accessOf, type NodeOwnership, ownershipOf, ownerTarget } from './access.ts';

/**
 * Who owns a node a caller creates (the nodes controller's post), or undefined under `noauth`:
 * a caller allowed `create:self_owned_node` outside the system scope creates nodes of its own
 * project, and may name no other owner.
 */
export function createdNodeOwner(
  request: FastifyRequest,
): { readonly ownProject: boolean; readonly projectId: string | null } | undefined {
  const access = accessOf(request);
  if (access === undefined) return undefined;
  const owned = access.allows('baremetal:node:create:self_owned_node');
  return { ownProject: owned && !access.systemScoped, projectId: access.projectId };
}

/**
 * node_sanitize's redactions under the policy: below `baremetal:node:get:filter_threshold`
 * (system readers by default), what the caller may not see of a node it may see (its last
 * error, its reservation, its internal and driver info) is replaced by the real notices.
 * `ownership` is the node's, read before the fields were narrowed. Nothing under `noauth`.
 */
export function redactNode(
  request: FastifyRequest,
  body: Record<string, unknown>,
  ownership: NodeOwnership,
): void {
  const access = accessOf(request);
  if (access === undefined) return;
  const target: Record<string, unknown> = { ...access.values };
  if (ownership.owner) target['node.owner'] = ownership.owner;
  if (ownership.lessee) target['node.lessee'] = ownership.lessee;
  if (access.allows('baremetal:node:get:filter_threshold', target)) return;
  const hidden = (rule: string) => !access.allows(`baremetal:node:get:${rule}`, target);
  if ('last_error' in body && hidden('last_error')) {
    body.last_error = '** Value Redacted - Requires baremetal:node:get:last_error permission. **';
  }
  if ('reservation' in body && hidden('reservation')) {
    body.reservation = '** Redacted - requires baremetal:node:get:reservation permission. **';
  }
  if ('driver_internal_info' in body && hidden('driver_internal_info')) {
    body.driver_internal_info = {
      content: '** Redacted - Requires baremetal:node:get:driver_internal_info permission. **',
    };
  }
  if ('driver_info' in body && hidden('driver_info')) {
    body.driver_info = {
      content: '** Redacted - requires baremetal:node:get:driver_info permission. **',
    };
  }
}

/** oslo's bool_from_string(value, default=None) is False. */
function isFalseString(value: unknown): boolean {
  if (typeof value === 'boolean') return !value;
  return ['0', 'f', 'false', 'off', 'n', 'no'].includes(String(value).trim().toLowerCase());
}

/** The rules a node patch needs, by the paths it touches (_authorize_patch_and_get_node). */
export function nodePatchRules(patch: readonly { path: string; value?: unknown }[]): string[] {
  const rules: string[] = [];
  let generic = false;
  for (const { path, value } of patch) {
    const field = path.replace(/^\/+/, '');
    const kind = field.endsWith('_interface') ? field.slice(0, -'_interface'.length) : undefined;
    if (path.startsWith('/instance_info')) rules.push('baremetal:node:update_instance_info');
    else if (path.startsWith('/extra')) rules.push('baremetal:node:update_extra');
    else if (path.startsWith('/automated_clean') && isFalseString(value)) {
      rules.push('baremetal:node:disable_cleaning');
    } else if (path.startsWith('/driver_info')) rules.push('baremetal:node:update:driver_info');
    else if (path.startsWith('/properties')) rules.push('baremetal:node:update:properties');
    else if (path.startsWith('/chassis_uuid')) rules.push('baremetal:node:update:chassis_uuid');
    else if (path.startsWith('/instance_uuid')) rules.push('baremetal:node:update:instance_uuid');
    else if (path.startsWith('/lessee')) rules.push('baremetal:node:update:lessee');
    else if (path.startsWith('/owner')) rules.push('baremetal:node:update:owner');
    else if (path.startsWith('/driver') || (kind !== undefined && isInterfaceKind(kind))) {
      rules.push('baremetal:node:update:driver_interfaces');
    } else if (path.startsWith('/network_data')) rules.push('baremetal:node:update:network_data');
    else if (path.startsWith('/conductor_group')) {
      rules.push('baremetal:node:update:conductor_group');
    } else if (path.startsWith('/name')) rules.push('baremetal:node:update:name');
    else if (path.startsWith('/retired')) rules.push('baremetal:node:update:retired');
    else if (path.startsWith('/shard')) rules.push('baremetal:node:update:shard');
    else generic = true;
  }
  if (generic || rules.length === 0) rules.push('baremetal:node:update');
  return rules;
}

/**
 * check_multiple_node_policies_and_retrieve for a patch: the first rule as a node check (not
 * visible: not found), the others on its owner and lessee. Nothing under `noauth`.
 */
export async function authorizeNodePatch(
  request: FastifyRequest,
  ident: string,
  patch: readonly { path: string; value?: unknown }[],
): Promise<void> {
  const access = accessOf(request);
  if (access === undefined) return;
  const [first, ...others] = nodePatchRules(patch);
  const found = await access.nodeAndAuthorize(first as string, ident);
  for (const rule of others) access.authorizeOnNode(rule, ownershipOf(found));
}

/** May the caller change the owner of a node that is ACTIVE (update_owner_provisioned)? */
export function mayChangeProvisionedOwner(request: FastifyRequest, found: NodeObject): boolean {
  const access = accessOf(request);
  if (access === undefined) return true;
  return access.allows(
    'baremetal:node:update_owner_provisioned',
    ownerTarget(access.values, ownershipOf(found)),
  );
}
