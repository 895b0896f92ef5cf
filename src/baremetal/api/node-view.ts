/**
 * A node as the real API shows it (node_convert_with_links and node_sanitize): its fields in
 * the real order, `traits` as names, `conductor` from the hash ring (1.49; null when no
 * conductor serves it), `allocation_uuid` (1.52; its allocation's, null when it has none or
 * the allocation is gone), `chassis_uuid`, the sub-resource links when no `fields` were asked for; then
 * secrets masked, the states older versions name differently renamed, and the fields of later
 * versions left out.
 */
import type { FastifyRequest } from 'fastify';
import type { FieldSpec } from '../../objects/index.ts';
import { type RecordBuilder, recordBuilder } from '../../objects/record-builder.ts';
import {
  InvalidError,
  InvalidParameterError,
  IronicError,
  NotFoundError,
} from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { servicesOf } from './context.ts';
import { FEATURES, gatesAt } from './features.ts';
import { type Link, publicUrl, selfLinks } from './links.ts';
import { maskDictPassword } from './mask-secrets.ts';
import { redactNode } from './node-access.ts';
import { nodeFieldsHidden } from './node-fields.ts';
import { invalidFields, keepFields, shownFieldValue, shownValue } from './object-dict.ts';
import { shownProvisionState } from './provision-verbs.ts';

/** The node fields the real API reads from the object, in its order. */
export const NODE_QUERY_FIELDS = [
  'automated_clean',
  'bios_interface',
  'boot_interface',
  'boot_mode',
  'clean_step',
  'conductor_group',
  'console_enabled',
  'console_interface',
  'deploy_interface',
  'deploy_step',
  'description',
  'driver',
  'driver_info',
  'driver_internal_info',
  'extra',
  'fault',
  'inspection_finished_at',
  'inspection_started_at',
  'inspect_interface',
  'instance_info',
  'instance_uuid',
  'last_error',
  'lessee',
  'maintenance',
  'maintenance_reason',
  'management_interface',
  'name',
  'network_data',
  'network_interface',
  'owner',
  'power_interface',
  'power_state',
  'properties',
  'protected',
  'protected_reason',
  'provision_state',
  'provision_updated_at',
  'raid_config',
  'raid_interface',
  'rescue_interface',
  'reservation',
  'resource_class',
  'retired',
  'retired_reason',
  'secure_boot',
  'shard',
  'storage_interface',
  'target_power_state',
  'target_provision_state',
  'target_raid_config',
  'traits',
  'vendor_interface',
] as const;

/** Fields the API fills in itself rather than reading them from the object. */
export const NODE_API_FIELDS = ['allocation_uuid', 'chassis_uuid', 'conductor'];

/** The default fields of a node list without `detail`. */
export const NODE_DEFAULT_FIELDS = [
  'instance_uuid',
  'maintenance',
  'power_state',
  'provision_state',
  'uuid',
  'name',
];

const SECRET = '******';

/** Things a page of node bodies share: chassis UUIDs looked up once, the version's gates. */
export class NodeViewContext {
  readonly request: FastifyRequest;
  readonly base: string;
  readonly #chassis = new Map<number, Promise<string | null>>();
  readonly #unserved = new Set<string>();

  constructor(request: FastifyRequest) {
    this.request = request;
    this.base = publicUrl(request);
  }

  chassisUuid(chassisId: number | null): Promise<string | null> {
    if (chassisId === null || chassisId === 0) return Promise.resolve(null);
    let known = this.#chassis.get(chassisId);
    if (known === undefined) {
      known = servicesOf(this.request)
        .store.chassis.get(chassisId)
        .then((chassis) => chassis.get('uuid'))
        .catch(() => null);
      this.#chassis.set(chassisId, known);
    }
    return known;
  }

  /** The uuid of the node's allocation; null when it has none or it is gone (AllocationNotFound). */
  allocationUuid(allocationId: number | null): Promise<string | null> {
    if (!allocationId) return Promise.resolve(null);
    return servicesOf(this.request)
      .store.allocations.get(allocationId)
      .then((allocation) => allocation.get('uuid'))
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
  }

  /** The host the node maps to; null when none serves it (NoValidHost, TemporaryFailure). */
  async conductor(node: NodeObject): Promise<string | null> {
    // A group and driver no conductor serves makes the ring cache read the conductors again;
    // once per page is enough.
    const ring = `${node.get('conductor_group') ?? ''}:${node.get('driver')}`;
    if (this.#unserved.has(ring)) return null;
    try {
      return await servicesOf(this.request).conductors.conductorFor(node);
    } catch (error) {
      if (error instanceof IronicError && (error.code === 404 || error.code === 503)) {
        this.#unserved.add(ring);
        return null;
      }
      throw error;
    }
  }
}

/** _get_fields_for_node_query: the object fields to read; an unknown one is refused. */
function objectFields(fields: readonly string[] | undefined): readonly string[] {
  if (fields === undefined) return NODE_QUERY_FIELDS;
  const known = new Set<string>(['uuid', 'traits', ...NODE_API_FIELDS, ...NODE_QUERY_FIELDS]);
  for (const field of fields) {
    if (!known.has(field)) throw new InvalidError(`Field ${field} is not a valid field.`);
  }
  return fields.filter((field) => !NODE_API_FIELDS.includes(field));
}

function subresourceLinks(base: string, uuid: string, path: string): Link[] {
  return selfLinks(base, 'nodes', `${uuid}/${path}`);
}

/** How one field of the body is filled: traits as names, a field the object lacks as null. */
type FieldStep =
  | { readonly name: string; readonly from: 'traits' | 'absent' }
  | {
      readonly name: string;
      readonly from: 'field';
      readonly index: number;
      readonly spec: FieldSpec;
    };

interface FieldPlan {
  readonly steps: readonly FieldStep[];
  /** Fields asked for but hidden at this version. */
  readonly leftOut: readonly string[];
  /** The keys after the object's fields (links, API fields, sub-resource links), in order. */
  readonly tail: readonly TailKey[];
  /** Every key of the body in order: uuid, created_at, updated_at, the steps', the tail. */
  readonly keys: readonly string[];
  /**
   * For the full body of a version (worked out once), one object literal of `keys`: a page of
   * bodies then shares one fast shape.
   */
  readonly build?: RecordBuilder;
}

type TailKey =
  | 'links'
  | 'conductor'
  | 'allocation_uuid'
  | 'chassis_uuid'
  | 'ports'
  | 'states'
  | 'portgroups'
  | 'volume';

/** The keys a body has after the object's fields, at this version, for these `fields`. */
function tailKeys(
  version: FastifyRequest['microversion'],
  fields: readonly string[] | undefined,
): TailKey[] {
  const wanted = (field: string) => fields === undefined || fields.includes(field);
  const keys: TailKey[] = ['links'];
  if (version.atLeast(FEATURES.conductors) && wanted('conductor')) keys.push('conductor');
  if (version.atLeast(FEATURES.allocations) && wanted('allocation_uuid')) {
    keys.push('allocation_uuid');
  }
  if (wanted('chassis_uuid')) keys.push('chassis_uuid');
  if (fields === undefined) {
    keys.push('ports');
    if (version.atLeast(FEATURES.statesAndPropertiesLinks)) keys.push('states');
    if (version.atLeast(FEATURES.portgroupSubresources)) keys.push('portgroups');
    if (version.atLeast(FEATURES.volume)) keys.push('volume');
  }
  return keys;
}

/**
 * The steps filling a body of `type`'s objects with `fields` at a version hiding `hidden`:
 * worked out once per version for the full body (lists and shows), so a page of nodes does
 * not look each field up again for each node.
 */
function fieldPlan(
  type: NodeObject['type'],
  version: FastifyRequest['microversion'],
  hidden: readonly string[],
  fields: readonly string[] | undefined,
): FieldPlan {
  const steps: FieldStep[] = [];
  const leftOut: string[] = [];
  for (const name of objectFields(fields)) {
    if (name === 'uuid' || name === 'created_at' || name === 'updated_at') continue;
    if (hidden.includes(name)) leftOut.push(name);
    else if (name === 'traits') steps.push({ name, from: 'traits' });
    // A field of a later release's object (shard): unset, so shown as null.
    else if (!Object.hasOwn(type.fields, name)) steps.push({ name, from: 'absent' });
    else {
      const index = type.fieldIndex(name);
      steps.push({ name, from: 'field', index, spec: type.specs[index] as FieldSpec });
    }
  }
  const tail = tailKeys(version, fields);
  const keys = ['uuid', 'created_at', 'updated_at', ...steps.map((step) => step.name), ...tail];
  if (fields !== undefined) return { steps, leftOut, tail, keys };
  const build = recordBuilder(keys);
  return { steps, leftOut, tail, keys, ...(build === undefined ? {} : { build }) };
}

const FULL_PLANS = new WeakMap<object, WeakMap<object, FieldPlan>>();

function fullBodyPlan(type: NodeObject['type'], request: FastifyRequest): FieldPlan {
  let byVersion = FULL_PLANS.get(type);
  if (byVersion === undefined) {
    byVersion = new WeakMap();
    FULL_PLANS.set(type, byVersion);
  }
  let plan = byVersion.get(request.microversion);
  if (plan === undefined) {
    plan = fieldPlan(type, request.microversion, nodeFieldsHidden(request), undefined);
    byVersion.set(request.microversion, plan);
  }
  return plan;
}

/** The value of one of the keys after the object's fields. */
function tailValue(
  view: NodeViewContext,
  node: NodeObject,
  uuid: string,
  key: TailKey,
): unknown | Promise<unknown> {
  switch (key) {
    case 'links':
      return selfLinks(view.base, 'nodes', uuid);
    case 'conductor':
      return view.conductor(node);
    case 'allocation_uuid':
      return view.allocationUuid(node.get('allocation_id'));
    case 'chassis_uuid':
      return view.chassisUuid(node.get('chassis_id'));
    default:
      return subresourceLinks(view.base, uuid, key);
  }
}

/** One node's body at the request's version; `fields` as asked for (after version checks). */
export async function nodeBody(
  view: NodeViewContext,
  node: NodeObject,
  fields?: readonly string[],
): Promise<Record<string, unknown>> {
  const { request } = view;
  const uuid = String(node.get('uuid'));
  // Fields hidden at this version are never added (deleting them later would leave the body
  // a slow dictionary-mode object for JSON.stringify; node_sanitize drops them all the same).
  const plan =
    fields === undefined
      ? fullBodyPlan(node.type, request)
      : fieldPlan(node.type, request.microversion, nodeFieldsHidden(request), fields);
  const values: unknown[] = [uuid, shownValue(node, 'created_at'), shownValue(node, 'updated_at')];
  for (const step of plan.steps) {
    if (step.from === 'field') {
      values.push(shownFieldValue(step.spec, node.peekAt(step.index)));
    } else if (step.from === 'traits') {
      const traits = node.peek('traits');
      values.push(traits ? traits.get('objects').map((trait) => trait.get('trait')) : []);
    } else {
      values.push(null);
    }
  }
  for (const key of plan.tail) {
    // Only the conductor and the chassis may wait; the links are made at once.
    const value = tailValue(view, node, uuid, key);
    values.push(value instanceof Promise ? await value : value);
  }
  let body: Record<string, unknown>;
  if (plan.build !== undefined) body = plan.build(values);
  else {
    body = {};
    for (const [i, key] of plan.keys.entries()) body[key] = values[i];
  }
  if (fields !== undefined) {
    // A field left out as hidden is a field of the node all the same (the list's defaults at 1.1
    // name `name`): only names that are no field at all are refused.
    const invalid = invalidFields(fields, body).filter((field) => !plan.leftOut.includes(field));
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return sanitizeNode(request, body, fields);
}

/** node_sanitize: what was asked for, secrets masked, older names, later fields hidden. */
function sanitizeNode(
  request: FastifyRequest,
  body: Record<string, unknown>,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  const ownership = {
    owner: (body.owner as string | null | undefined) ?? null,
    lessee: (body.lessee as string | null | undefined) ?? null,
  };
  keepFields(body, fields);
  redactNode(request, body, ownership);
  if (isRecord(body.driver_info)) body.driver_info = maskDictPassword(body.driver_info, SECRET);
  if (isRecord(body.instance_info)) {
    const info = maskDictPassword(body.instance_info, SECRET);
    if (info.configdrive) info.configdrive = SECRET;
    if (info.image_url) info.image_url = SECRET;
    body.instance_info = info;
  }
  if (isRecord(body.driver_internal_info) && body.driver_internal_info.agent_secret_token) {
    body.driver_internal_info = { ...body.driver_internal_info, agent_secret_token: SECRET };
  }
  if ('provision_state' in body) {
    body.provision_state = shownProvisionState(
      body.provision_state as string | null,
      gatesAt(request.microversion),
    );
  }
  for (const field of nodeFieldsHidden(request)) delete body[field];
  return body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
