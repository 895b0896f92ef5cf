/**
 * Creating, changing and deleting nodes as the real API does (NodesController.post, patch and
 * delete): the body checked and the version rules applied here, the write done by the
 * conductor the node maps to (create_node, update_node, destroy_node over RPC). A driver no
 * conductor runs is the real NoValidHost, answered 400 here as the real API converts it.
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import {
  InvalidError,
  NodeChangedError,
  NotFoundError,
  NoValidHostError,
} from '../common/errors.ts';
import { ProvisionState, STATE_GROUPS } from '../common/provision-states.ts';
import { Node, type NodeObject } from '../objects/index.ts';
import { refuseOwnerOfOwnedAllocation } from './allocation-owner.ts';
import { servicesOf } from './context.ts';
import { ClientSideError, NotAcceptableError, withStatus } from './errors.ts';
import { FEATURES, gatesAt } from './features.ts';
import {
  allowedPatchFields,
  applyJsonPatch,
  type PatchOperation,
  patchValues,
} from './json-patch.ts';
import { createdNodeOwner, mayChangeProvisionedOwner } from './node-access.ts';
import { nodeFieldsHidden } from './node-fields.ts';
import { isValidNodeName } from './node-lookup.ts';
import {
  NODE_DESCRIPTION_MAX_LENGTH,
  NODE_PATCH_SCHEMA,
  NODE_PATCH_VALIDATOR,
  PATCH_ALLOWED_FIELDS,
  RESERVED_NODE_NAMES,
} from './node-schemas.ts';
import { asDict, updateChangedFields } from './object-dict.ts';
import { PatchTurns } from './patch-turns.ts';
import { initialProvisionState } from './provision-verbs.ts';

/** _check_names_acceptable: names from 1.5, valid at the version, not UUIDs, not reserved. */
export function checkNamesAcceptable(
  request: FastifyRequest,
  names: readonly unknown[],
  invalid: (name: string) => string,
): void {
  if (!request.microversion.atLeast(FEATURES.nodeNames)) throw new NotAcceptableError();
  for (const name of names) {
    const text = String(name);
    if (typeof name !== 'string' || !isValidNodeName(request, name) || isUuidLike(name)) {
      throw new ClientSideError(invalid(text));
    }
    if (RESERVED_NODE_NAMES.includes(name)) {
      throw new ClientSideError(
        `The word "${name}" is reserved and can not be used as a node name. Reserved words are: ${RESERVED_NODE_NAMES.join(', ')}.`,
      );
    }
  }
}

/** A chassis UUID as the node's chassis id; an unknown chassis is 400 on a node. */
async function chassisIdOf(request: FastifyRequest, uuid: unknown): Promise<number | null> {
  if (!uuid) return null;
  const lookup = async () => {
    if (!isUuidLike(uuid)) throw new NotFoundError('chassis', String(uuid));
    return servicesOf(request).store.chassis.get(String(uuid));
  };
  const chassis = await withStatus(400, [NotFoundError], lookup);
  return chassis.get('id');
}

/**
 * Node fields the object version in force cannot carry: automatic caps (the service-version spec) lower the
 * Node version written and sent without lowering the API maximum, so a 1.82 request may name
 * `shard` while the conductors still get Node 1.36, which would drop it. The rolling-upgrade doc: what the API
 * version pin does not prevent is refused with 406.
 */
function fieldsBeyondObjectCap(request: FastifyRequest): readonly string[] {
  const target = servicesOf(request).store.context.targets.objectVersion(Node.name, Node.version);
  if (target === Node.version) return [];
  const carried = new Set<string>(Node.fieldsAt(target));
  return Node.fieldNames.filter((field) => !carried.has(field));
}

/** reject_fields_in_newer_versions: a field of a later version set to anything but empty. */
function rejectNewerFields(request: FastifyRequest, values: Record<string, unknown>): void {
  for (const field of fieldsBeyondObjectCap(request)) {
    if (values[field] !== undefined && values[field] !== null) throw new NotAcceptableError();
  }
  for (const field of nodeFieldsHidden(request)) {
    if (field === 'name' && (values.name === null || values.name === undefined)) continue;
    const empty = field === 'conductor_group' ? '' : null;
    const value = Object.hasOwn(values, field) ? values[field] : empty;
    if (value !== empty) throw new NotAcceptableError();
  }
}

/** POST /v1/nodes after the body passed NODE_VALIDATOR: the node as the conductor made it. */
export async function createNode(
  request: FastifyRequest,
  values: Record<string, unknown>,
): Promise<NodeObject> {
  rejectNewerFields(request, values);
  const node = Node.create({});
  const settings = servicesOf(request).settings;
  const fields = { ...values };
  if (!fields.conductor_group) fields.conductor_group = '';
  if (fields.name !== null && fields.name !== undefined) {
    checkNamesAcceptable(
      request,
      [fields.name],
      (name) => `Cannot create node with invalid name '${name}'`,
    );
  }
  fields.provision_state = initialProvisionState(gatesAt(request.microversion));
  // A caller allowed to create nodes of its own outside the system scope owns what it creates
  // and may name no other owner. Under noauth the real API counts as such a caller without a
  // project: a new node is never owned.
  const creator = createdNodeOwner(request) ?? { ownProject: true, projectId: null };
  if (creator.ownProject) {
    if (fields.owner && fields.owner !== creator.projectId) {
      throw new InvalidError(
        'Cannot create a node as a project scoped admin with an owner other than your own project.',
      );
    }
    fields.owner = creator.projectId;
  }
  if (!fields.resource_class) fields.resource_class = settings.defaultResourceClass ?? null;
  const chassisUuid = fields.chassis_uuid;
  delete fields.chassis_uuid;
  fields.chassis_id = await chassisIdOf(request, chassisUuid);
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'uuid' && !value) continue;
    node.assign(field, value);
  }
  if (!node.isSet('uuid') || node.get('uuid') === null) node.set('uuid', crypto.randomUUID());
  const { conductors } = servicesOf(request);
  return withStatus(400, [NoValidHostError], () => conductors.createNode(node));
}

/** A node's fields as the JSON document a PATCH applies to (Node.as_dict, plus chassis_uuid). */
async function patchableDocument(
  request: FastifyRequest,
  node: NodeObject,
): Promise<Record<string, unknown>> {
  const doc = asDict(node, ['traits']);
  const chassisId = node.get('chassis_id');
  doc.chassis_uuid = null;
  if (chassisId) {
    try {
      doc.chassis_uuid = (await servicesOf(request).store.chassis.get(chassisId)).get('uuid');
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return doc;
}

/** _validate_patch: the checks on the document before the node is read. */
export function validateNodePatch(
  request: FastifyRequest,
  patch: readonly PatchOperation[],
  resetInterfaces: boolean | undefined,
): void {
  allowedPatchFields(patch, PATCH_ALLOWED_FIELDS);
  for (const field of [...nodeFieldsHidden(request), ...fieldsBeyondObjectCap(request)]) {
    if (patchValues(patch, `/${field}`).length > 0) throw new NotAcceptableError();
  }
  if (patchValues(patch, '/traits').length > 0) {
    throw new InvalidError(
      'Cannot update node traits via node patch. Node traits should be updated via the node traits API.',
    );
  }
  if (resetInterfaces && patchValues(patch, '/driver').length === 0) {
    throw new InvalidError(
      "The reset_interfaces parameter can only be used when changing the node's driver.",
    );
  }
  const description = patchValues(patch, '/description');
  if (description.length > 0 && String(description[0] ?? '').length > NODE_DESCRIPTION_MAX_LENGTH) {
    throw new InvalidError(
      `Cannot update node with description exceeding ${NODE_DESCRIPTION_MAX_LENGTH} characters`,
    );
  }
}

/** Whether the patch is exactly the removal of the instance UUID (allowed in maintenance). */
function removesInstanceOnly(patch: readonly PatchOperation[]): boolean {
  return patch.length === 1 && patch[0]?.op === 'remove' && patch[0]?.path === '/instance_uuid';
}

/** PATCH /v1/nodes/{ident} once the node is found: the node as the conductor saved it. */
export async function patchNode(
  request: FastifyRequest,
  ident: string,
  node: NodeObject,
  patch: readonly PatchOperation[],
  resetInterfaces: boolean | undefined,
): Promise<NodeObject> {
  const state = node.get('provision_state');
  if (node.get('maintenance') && removesInstanceOnly(patch)) {
    // Allowed in any state.
  } else if (
    node.get('target_provision_state') &&
    !(STATE_GROUPS.updateAllowed as readonly string[]).includes(state ?? '')
  ) {
    throw new ClientSideError(
      `Node ${ident} can not be updated while a state transition is in progress.`,
      409,
    );
  } else if (
    state === ProvisionState.INSPECTING &&
    request.microversion.atLeast(FEATURES.inspectWaitState)
  ) {
    throw new ClientSideError(
      `Cannot update node "${node.get('uuid')}" while it is in state "inspecting".`,
      409,
    );
  }
  if (
    patchValues(patch, '/owner').length > 0 &&
    state === ProvisionState.ACTIVE &&
    !mayChangeProvisionedOwner(request, node)
  ) {
    throw new ClientSideError(
      `Cannot update owner of node "${node.get('uuid')}" while it is in state "active".`,
      409,
    );
  }
  if (patchValues(patch, '/owner').length > 0) await refuseOwnerOfOwnedAllocation(request, node);
  const names = patchValues(patch, '/name');
  if (names.length > 0) {
    checkNamesAcceptable(
      request,
      names,
      (name) => `Node ${ident}: Cannot change name to invalid name '${name}'`,
    );
  }
  const current = await patchableDocument(request, node);
  const patched = applyJsonPatch(current, patch);
  const schemaFields = Object.keys(NODE_PATCH_SCHEMA.properties as object);
  for (const field of Object.keys(patched)) {
    if (!schemaFields.includes(field)) delete patched[field];
  }
  const valid = NODE_PATCH_VALIDATOR('patch', patched) as Record<string, unknown>;
  const read = node.clone();
  const originalChassis = node.get('chassis_id');
  const chassisId = await chassisIdOf(request, valid.chassis_uuid);
  valid.conductor_group = String(valid.conductor_group ?? '').toLowerCase();
  if (valid.protected === null || valid.protected === undefined) valid.protected = false;
  const values: Record<string, unknown> = { chassis_id: chassisId };
  for (const field of Node.fieldNames) {
    if (field !== 'traits' && schemaFields.includes(field)) values[field] = valid[field] ?? null;
  }
  updateChangedFields(node, values);

  if (originalChassis && !node.get('chassis_id')) {
    if (!request.microversion.atLeast(FEATURES.removeChassisUuid)) throw new NotAcceptableError();
  }
  const { conductors } = servicesOf(request);
  await withStatus(400, [NoValidHostError], () => conductors.conductorFor(node));
  if (node.changedFields().has('driver') && node.get('console_enabled')) {
    throw new ClientSideError(
      `Node ${ident} can not update the driver while the console is enabled. Please stop the console first.`,
      409,
    );
  }
  const expectedValues = readValues(read, [...node.changedFields(), ...PATCH_READS]);
  return withStatus(400, [NoValidHostError], () =>
    conductors.updateNode(node, {
      ...(resetInterfaces === undefined ? {} : { resetInterfaces }),
      expectedValues,
      keyedFields: keyedFields(patch),
    }),
  );
}

/** Dictionaries whose keys are the user's own, each key independent of the others. */
const DICTIONARY_FIELDS = ['extra', 'properties', 'driver_info', 'instance_info'];

/**
 * The dictionary fields the patch changes key by key only (`/extra/a`, never `/extra`): the
 * conductor may merge them with keys another writer changed meanwhile.
 */
function keyedFields(patch: readonly PatchOperation[]): string[] {
  return DICTIONARY_FIELDS.filter((field) => {
    const touching = patch.filter((op) => op.path.split('/')[1] === field);
    return touching.length > 0 && touching.every((op) => op.path.split('/').length > 2);
  });
}

/**
 * The fields a PATCH's checks read besides those it changes (the state rules, ownership, the
 * conductor it is routed to, protection and retirement): the conductor applies the change only
 * if these, and every field the change writes, still hold the values the API read.
 */
const PATCH_READS = [
  'provision_state',
  'target_provision_state',
  'maintenance',
  'owner',
  'lessee',
  'console_enabled',
  'driver',
  'conductor_group',
  'chassis_id',
  'protected',
  'retired',
] as const;

function readValues(read: NodeObject, fields: readonly string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field] = read.peek(field as never) ?? null;
  return values;
}

/** Node PATCHes, applied again while the conductor answers NodeChanged. */
const NODE_PATCHES = new PatchTurns((error) => error instanceof NodeChangedError);

/**
 * Runs `apply` (read the node, apply the PATCH, send it) in the node's turn among this
 * process's PATCHes, and again at once while the conductor answers NodeChanged: another writer
 * (another API process, a maintenance change, a provision action...) changed what the PATCH was
 * computed from, and the PATCH is applied anew to what that writer left.
 */
export function patchedAgainOnChange<T>(
  request: FastifyRequest,
  ident: string,
  apply: () => Promise<T>,
): Promise<T> {
  return NODE_PATCHES.apply(request, ident, apply);
}
