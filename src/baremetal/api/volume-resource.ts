/**
 * /v1/volume/connectors and /v1/volume/targets (API 1.32), and the same under
 * /v1/nodes/{node}/volume, as the real VolumeConnectorsController and VolumeTargetsController
 * serve them: lists (filter `node`; `fields`, `detail`, paging), show, create (written by the API
 * process, as the real one does), PATCH and delete (sent to the node's conductor, RPC 1.4). The
 * two controllers differ only in their fields, schema and errors, so one definition serves both,
 * given a `VolumeKind`. Under a node only the lists are served: anything else is the real
 * "Operation not permitted." after the policy check. A target's `properties` are redacted for a
 * caller without `baremetal:volume:view_target_properties`, and their secrets masked for all
 * (the installed 21.4.4's patched controller). Every acknowledged PATCH is kept: see `update`.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { VersionedObject } from '../../objects/index.ts';
import { isUuidLike, type JsonSchema } from '../../python-compat/index.ts';
import {
  InvalidError,
  InvalidParameterError,
  NotFoundError,
  VolumeChangedError,
} from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import {
  VolumeConnector,
  type VolumeConnectorObject,
  VolumeTarget,
  type VolumeTargetObject,
} from '../objects/index.ts';
import { nodeForCreate } from './access.ts';
import { policyAllows } from './allocation-access.ts';
import { listBody } from './collection.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, NotAcceptableError, withStatus } from './errors.ts';
import {
  allowedPatchFields,
  applyJsonPatch,
  type PatchOperation,
  patchValues,
} from './json-patch.ts';
import { buildUrl, publicUrl, selfLinks } from './links.ts';
import { checkLimit, checkSortDir, checkSortKey } from './list-params.ts';
import { maskDictPassword } from './mask-secrets.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import {
  asDict,
  invalidFields,
  keepFields,
  objectToDict,
  updateChangedFields,
} from './object-dict.ts';
import { args, bindParams } from './params.ts';
import { PatchTurns } from './patch-turns.ts';
import { PortRelations } from './port-args.ts';
import { dictValid, PATCH_ARG, schemaArg } from './schema-args.ts';
import { authorizeOnVolume, volumeListProject } from './volume-access.ts';

/** A connector or a target, read through the fields both have. */
type VolumeObject = VersionedObject;

interface VolumeStore {
  get(ident: string | number): Promise<VolumeObject>;
  list(
    filters: { node_id?: number; project?: string },
    page: { limit?: number; marker?: string; sortKey?: string; sortDir?: 'asc' | 'desc' },
  ): Promise<VolumeObject[]>;
  create(obj: never): Promise<VolumeObject>;
}

/** What tells a connector's controller from a target's. */
export interface VolumeKind {
  /** The list's key and the URL segment: `connectors` or `targets`. */
  readonly collection: 'connectors' | 'targets';
  /** The path argument's name in messages (`connector_uuid`). */
  readonly uuidArg: string;
  /** The body argument's name (`connector`). */
  readonly bodyArg: string;
  readonly schema: JsonSchema;
  readonly bodyFields: readonly string[];
  readonly defaultFields: readonly string[];
  readonly invalidSortKeys: readonly string[];
  readonly patchAllowed: readonly string[];
  readonly fieldNames: readonly string[];
  readonly newObject: () => VolumeObject;
  readonly store: (request: FastifyRequest) => VolumeStore;
  readonly notFound: (ident: string) => Error;
  readonly redacts: boolean;
  readonly update: (
    request: FastifyRequest,
    node: NodeObject,
    obj: never,
    expected: Record<string, unknown>,
  ) => Promise<VolumeObject>;
  readonly destroy: (request: FastifyRequest, node: NodeObject, obj: never) => Promise<void>;
}

const REDACTED = {
  redacted_contents:
    '** Value redacted: Requires permission baremetal:volume:view_target_properties access. Permission denied. **',
};

const NOT_PERMITTED = () => new ClientSideError('Operation not permitted.', 403);

export const CONNECTOR_KIND: VolumeKind = {
  collection: 'connectors',
  uuidArg: 'connector_uuid',
  bodyArg: 'connector',
  schema: {
    type: 'object',
    properties: {
      connector_id: { type: 'string' },
      extra: { type: ['object', 'null'] },
      node_uuid: { type: 'string' },
      type: { type: 'string' },
      uuid: { type: ['string', 'null'] },
    },
    required: ['connector_id', 'node_uuid', 'type'],
    additionalProperties: false,
  },
  bodyFields: ['connector_id', 'extra', 'type'],
  defaultFields: ['uuid', 'node_uuid', 'type', 'connector_id'],
  invalidSortKeys: ['extra'],
  patchAllowed: ['connector_id', 'extra', 'node_uuid', 'type'],
  fieldNames: VolumeConnector.fieldNames,
  newObject: () => VolumeConnector.create({}) as VolumeObject,
  store: (request) => servicesOf(request).store.volumeConnectors as unknown as VolumeStore,
  notFound: (ident) => new NotFoundError('volume_connector', ident),
  redacts: false,
  update: (request, node, obj, expected) =>
    servicesOf(request).conductors.updateVolumeConnector(
      node,
      obj as VolumeConnectorObject,
      expected,
    ) as Promise<VolumeObject>,
  destroy: (request, node, obj) =>
    servicesOf(request).conductors.destroyVolumeConnector(node, obj as VolumeConnectorObject),
};

export const TARGET_KIND: VolumeKind = {
  collection: 'targets',
  uuidArg: 'target_uuid',
  bodyArg: 'target',
  schema: {
    type: 'object',
    properties: {
      boot_index: { type: 'integer' },
      extra: { type: ['object', 'null'] },
      node_uuid: { type: 'string' },
      properties: { type: ['object', 'null'] },
      volume_id: { type: 'string' },
      volume_type: { type: 'string' },
      uuid: { type: ['string', 'null'] },
    },
    required: ['boot_index', 'node_uuid', 'volume_id', 'volume_type'],
    additionalProperties: false,
  },
  bodyFields: ['boot_index', 'extra', 'properties', 'volume_id', 'volume_type'],
  defaultFields: ['uuid', 'node_uuid', 'volume_type', 'boot_index', 'volume_id'],
  invalidSortKeys: ['extra', 'properties'],
  patchAllowed: ['boot_index', 'extra', 'node_uuid', 'properties', 'volume_id', 'volume_type'],
  fieldNames: VolumeTarget.fieldNames,
  newObject: () => VolumeTarget.create({}) as VolumeObject,
  store: (request) => servicesOf(request).store.volumeTargets as unknown as VolumeStore,
  notFound: (ident) => new NotFoundError('volume_target', ident),
  redacts: true,
  update: (request, node, obj, expected) =>
    servicesOf(request).conductors.updateVolumeTarget(
      node,
      obj as VolumeTargetObject,
      expected,
    ) as Promise<VolumeObject>,
  destroy: (request, node, obj) =>
    servicesOf(request).conductors.destroyVolumeTarget(node, obj as VolumeTargetObject),
};

/** The schema, then node_uuid and uuid as UUIDs (CONNECTOR_VALIDATOR, TARGET_VALIDATOR). */
function validatorOf(kind: VolumeKind) {
  return args.and(
    schemaArg(kind.schema, { noneIsValid: false }),
    dictValid({ node_uuid: args.uuid, uuid: args.uuid }),
  );
}

/** Whether the caller sees targets' properties (always under noauth). */
function seesProperties(request: FastifyRequest, kind: VolumeKind): boolean {
  return !kind.redacts || policyAllows(request, 'baremetal:volume:view_target_properties');
}

/**
 * target_sanitize of the installed 21.4.4 (Debian's patched controller): the fields asked for
 * kept, then a target's secrets in `properties` masked. A connector: the fields only.
 */
function sanitize(
  kind: VolumeKind,
  body: Record<string, unknown>,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  keepFields(body, fields);
  const properties = body.properties as Record<string, unknown> | null | undefined;
  if (kind.redacts && properties && Object.keys(properties).length > 0) {
    body.properties = maskDictPassword(properties, '******');
  }
  return body;
}

/**
 * convert_with_links: the fields, `links`, the node's UUID (a target's properties redacted first
 * for a caller who may not see them, except in the answer to a create, as the real one).
 */
async function volumeBody(
  request: FastifyRequest,
  kind: VolumeKind,
  relations: PortRelations,
  obj: VolumeObject,
  options: { fields?: readonly string[] | undefined; sanitize?: boolean; redact?: boolean } = {},
): Promise<Record<string, unknown>> {
  const body = objectToDict(obj, kind.bodyFields);
  if (options.redact !== false && !seesProperties(request, kind)) {
    body.properties = { ...REDACTED };
  }
  body.links = selfLinks(publicUrl(request), `volume/${kind.collection}`, String(obj.get('uuid')));
  body.node_uuid = await relations.nodeUuid(obj.get('node_id') as number | null);
  const { fields } = options;
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return options.sanitize === false ? body : sanitize(kind, body, fields);
}

/** The parent node segment of a route under /v1/nodes/{node}/volume, if any. */
function parentOf(request: FastifyRequest): string | undefined {
  return (request.params as { node?: string }).node === undefined ? undefined : nodeIdent(request);
}

async function list(request: FastifyRequest, kind: VolumeKind): Promise<unknown> {
  const parent = parentOf(request);
  const params = bindParams(request, {
    node: { validate: args.uuidOrName },
    marker: { validate: args.uuid },
    limit: { validate: args.integer },
    sort_key: { validate: args.string },
    sort_dir: { validate: args.string },
    fields: { validate: args.stringList },
    detail: { validate: args.boolean },
  });
  const project = await volumeListProject(request, parent);
  const detail = params.detail as boolean | undefined;
  let fields = params.fields as string[] | undefined;
  if (fields === undefined && !detail) fields = [...kind.defaultFields];
  if (fields !== undefined && fields.length > 0 && detail) {
    throw new InvalidParameterError("Can't fetch a subset of fields with 'detail' set");
  }
  const limit = checkLimit(request, params.limit as number | undefined);
  const sortDir = checkSortDir((params.sort_dir as string | undefined) ?? 'asc');
  const sortKey = (params.sort_key as string | undefined) ?? 'id';
  const store = kind.store(request);
  const marker = params.marker as string | undefined;
  if (marker !== undefined) await store.get(marker);
  checkSortKey(sortKey, kind.invalidSortKeys);
  const nodeIdentity = parent ?? (params.node as string | undefined);
  const filters: { node_id?: number; project?: string } = {};
  if (project !== undefined) filters.project = project;
  if (nodeIdentity) filters.node_id = Number((await findNode(request, nodeIdentity)).get('id'));
  const found = await store.list(filters, {
    limit,
    ...(marker === undefined ? {} : { marker }),
    sortKey,
    sortDir,
  });
  const relations = new PortRelations(request);
  const items = await Promise.all(
    found.map((obj) => volumeBody(request, kind, relations, obj, { fields, sanitize: false })),
  );
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (detail) parameters.push(['detail', detail]);
  const body = listBody(
    kind.collection,
    items,
    found.map((obj) => String(obj.get('uuid'))),
    { limit, url: `volume/${kind.collection}`, base: publicUrl(request), parameters, fields },
  );
  for (const item of items) sanitize(kind, item, fields);
  return body;
}

/** check_volume_policy_and_retrieve: the connector or target, and its node. */
async function retrieve(request: FastifyRequest, kind: VolumeKind, rule: string, ident: string) {
  const obj = await kind.store(request).get(ident);
  const node = await authorizeOnVolume(request, rule, obj.get('node_id') as number | null, () =>
    kind.notFound(ident),
  );
  return { obj, node };
}

/** The path's UUID, validated as the real `args.validate` does. */
function uuidOf(request: FastifyRequest, kind: VolumeKind): string {
  const { volume } = request.params as { volume: string };
  args.uuid(kind.uuidArg, volume);
  return volume;
}

/** get_one; `positionalFields`: pecan binds a segment after the UUID to `fields`. */
async function show(
  request: FastifyRequest,
  kind: VolumeKind,
  positionalFields?: string,
): Promise<unknown> {
  const params = bindParams(request, { fields: { validate: args.stringList } });
  if (positionalFields !== undefined) params.fields = args.stringList('fields', positionalFields);
  const ident = uuidOf(request, kind);
  const { obj } = await retrieve(request, kind, 'baremetal:volume:get', ident);
  if (parentOf(request) !== undefined) throw NOT_PERMITTED();
  return volumeBody(request, kind, new PortRelations(request), obj, {
    fields: params.fields as string[] | undefined,
  });
}

async function create(
  request: FastifyRequest,
  reply: Parameters<Handler>[1],
  kind: VolumeKind,
): Promise<unknown> {
  const parent = parentOf(request);
  const params = bindParams(
    request,
    { [kind.bodyArg]: { validate: validatorOf(kind) } },
    { bodyArg: kind.bodyArg },
  );
  const values = { ...(params[kind.bodyArg] as Record<string, unknown>) };
  const nodeUuid = values.node_uuid;
  const node = await nodeForCreate(request, 'baremetal:volume:create', async () => {
    const { store } = servicesOf(request);
    try {
      if (!isUuidLike(nodeUuid)) throw new NotFoundError('node', String(nodeUuid));
      return await store.nodes.get(nodeUuid as string);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ClientSideError(
        `Invalid input for field/attribute node_uuid. Value: '${String(nodeUuid)}'. `,
      );
    }
  });
  if (parent !== undefined) throw NOT_PERMITTED();
  delete values.node_uuid;
  const obj = kind.newObject();
  obj.assign('node_id', node.get('id'));
  for (const [field, value] of Object.entries(values)) obj.assign(field, value);
  if (!values.uuid) obj.assign('uuid', randomUUID());
  const created = await kind.store(request).create(obj as never);
  const uuid = String(created.get('uuid'));
  reply
    .code(201)
    .header('location', buildUrl(publicUrl(request), `volume/${kind.collection}`, uuid));
  return volumeBody(request, kind, new PortRelations(request), created, { redact: false });
}

/** RPC 1.4 carries the change: under a lower cap (pinned to zed) it is not sent. */
function requireVolumeRpc(request: FastifyRequest): void {
  if (!servicesOf(request).conductors.canSendVolumes()) {
    throw new NotAcceptableError(
      'Request not acceptable. Changing a volume connector or target needs conductor RPC API 1.4, above the version cap in force',
    );
  }
}

/** Volume PATCHes, applied again while the conductor answers VolumeChanged. */
const VOLUME_PATCHES = new PatchTurns((error) => error instanceof VolumeChangedError);

/**
 * PATCHes of one volume take turns in this process, so that they do not meet on the node's
 * reservation (NodeLocked) or refuse each other; a VolumeChanged (another process's PATCH went
 * in) applies the PATCH again to a new read.
 */
async function update(request: FastifyRequest, kind: VolumeKind): Promise<unknown> {
  const params = bindParams(request, { patch: { validate: PATCH_ARG } }, { bodyArg: 'patch' });
  const ident = uuidOf(request, kind);
  return VOLUME_PATCHES.apply(request, ident, () =>
    applyPatch(request, kind, ident, params.patch as PatchOperation[]),
  );
}

/** Reads the volume, applies the PATCH and sends the change with the values it read. */
async function applyPatch(
  request: FastifyRequest,
  kind: VolumeKind,
  ident: string,
  patch: PatchOperation[],
): Promise<unknown> {
  const { obj } = await retrieve(request, kind, 'baremetal:volume:update', ident);
  if (parentOf(request) !== undefined) throw NOT_PERMITTED();
  allowedPatchFields(patch, kind.patchAllowed);
  for (const value of patchValues(patch, '/node_uuid')) {
    if (!isUuidLike(value)) {
      throw new InvalidError(`Expected a UUID for node_uuid, but received ${String(value)}.`);
    }
  }
  const { store } = servicesOf(request);
  let node = await store.nodes.get(Number(obj.get('node_id')));
  const current = asDict(obj, ['node_id']);
  current.node_uuid = node.get('uuid');
  const patched = applyJsonPatch(current, patch);
  if (patched.node_uuid !== node.get('uuid')) {
    node = await withStatus(400, [NotFoundError, InvalidParameterError], () =>
      store.nodes.get(String(patched.node_uuid)),
    );
  }
  const schemaFields = Object.keys(kind.schema.properties as object);
  for (const field of Object.keys(patched)) {
    if (!schemaFields.includes(field)) delete patched[field];
  }
  const valid = validatorOf(kind)('patch', patched) as Record<string, unknown>;
  const values: Record<string, unknown> = { node_id: node.get('id') };
  for (const field of kind.fieldNames) {
    if (field !== 'node_id' && schemaFields.includes(field)) values[field] = valid[field] ?? null;
  }
  const read = asDict(obj);
  updateChangedFields(obj, values);
  const expected: Record<string, unknown> = {};
  for (const field of obj.changedFields()) expected[field] = read[field] ?? null;
  requireVolumeRpc(request);
  const saved = await kind.update(request, node, obj as never, expected);
  return volumeBody(request, kind, new PortRelations(request), saved);
}

async function destroy(
  request: FastifyRequest,
  reply: Parameters<Handler>[1],
  kind: VolumeKind,
): Promise<undefined> {
  bindParams(request, {});
  const ident = uuidOf(request, kind);
  const { obj, node } = await retrieve(request, kind, 'baremetal:volume:delete', ident);
  if (parentOf(request) !== undefined) throw NOT_PERMITTED();
  if (node === undefined) throw new NotFoundError('node', Number(obj.get('node_id')));
  requireVolumeRpc(request);
  await kind.destroy(request, node, obj as never);
  reply.code(204);
  return undefined;
}

/** The handlers of one kind: the collection's and the item's. */
export function volumeHandlers(kind: VolumeKind) {
  const handlers = {
    list: (request: FastifyRequest) => list(request, kind),
    create: (request: FastifyRequest, reply: Parameters<Handler>[1]) =>
      create(request, reply, kind),
    show: (request: FastifyRequest) => show(request, kind),
    showPositional: (request: FastifyRequest) =>
      show(request, kind, (request.params as { extra: string }).extra),
    update: (request: FastifyRequest) => update(request, kind),
    destroy: (request: FastifyRequest, reply: Parameters<Handler>[1]) =>
      destroy(request, reply, kind),
    /** POST to an item: pecan binds the segment to the body argument, which the schema refuses. */
    createUnder: async (request: FastifyRequest) => {
      validatorOf(kind)(kind.bodyArg, (request.params as { volume: string }).volume);
      throw new ClientSideError('Resource could not be found.', 404);
    },
    missingUuid: async () => {
      throw new InvalidParameterError(`Missing mandatory parameter: ${kind.uuidArg}`);
    },
  } satisfies Record<string, Handler>;
  return handlers;
}
