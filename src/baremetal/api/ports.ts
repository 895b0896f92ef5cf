/**
 * /v1/ports as the real API serves it (controllers/v1/port.py): lists (filters node, node_uuid,
 * address, portgroup; `fields`, `detail`), `/detail`, show, create, PATCH and delete, and the
 * lists under a node and under a port group. Ports are written by the conductor of their node
 * (create_port, update_port, destroy_port over RPC); the conductor refuses a MAC address
 * already taken (409).
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuidLike, type JsonSchema } from '../../python-compat/index.ts';
import { InvalidError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { Port, type PortObject } from '../objects/index.ts';
import { listProjectOf, nodeForCreate } from './access.ts';
import { listBody } from './collection.ts';
import { type Handler, servicesOf } from './context.ts';
import {
  ClientSideError,
  minimalVersionRequired,
  NotAcceptableError,
  withStatus,
} from './errors.ts';
import { FEATURES, PORT_FIELD_FEATURES } from './features.ts';
import {
  allowedPatchFields,
  applyJsonPatch,
  type PatchOperation,
  patchValues,
} from './json-patch.ts';
import { buildUrl, publicUrl, selfLinks } from './links.ts';
import {
  checkFieldsAllowed,
  checkLimit,
  checkSortDir,
  checkSortKey,
  returnFields,
} from './list-params.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import {
  asDict,
  invalidFields,
  keepFields,
  objectToDict,
  updateChangedFields,
} from './object-dict.ts';
import { args, bindParams, type Params } from './params.ts';
import {
  localLinkConnectionArg,
  localLinkSmartNic,
  macAddressArg,
  PortRelations,
} from './port-args.ts';
import { findPortgroup, portgroupSegment } from './portgroup-lookup.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { dictValid, PATCH_ARG, schemaArg } from './schema-args.ts';
import { pathOf } from './wsgi-path.ts';

export const PORT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    address: { type: 'string' },
    extra: { type: ['object', 'null'] },
    is_smartnic: { type: ['string', 'boolean', 'null'] },
    local_link_connection: { type: ['null', 'object'] },
    node_uuid: { type: 'string' },
    physical_network: { type: ['string', 'null'], maxLength: 64 },
    portgroup_uuid: { type: ['string', 'null'] },
    pxe_enabled: { type: ['string', 'boolean', 'null'] },
    uuid: { type: ['string', 'null'] },
  },
  required: ['address', 'node_uuid'],
  additionalProperties: false,
};
const PORT_VALIDATOR = args.and(
  schemaArg(PORT_SCHEMA, { noneIsValid: false }),
  dictValid({
    address: macAddressArg,
    node_uuid: args.uuid,
    is_smartnic: args.boolean,
    local_link_connection: localLinkConnectionArg,
    portgroup_uuid: args.uuid,
    pxe_enabled: args.boolean,
    uuid: args.uuid,
  }),
);
const PATCH_ALLOWED_FIELDS = [
  'address',
  'extra',
  'is_smartnic',
  'local_link_connection',
  'node_uuid',
  'physical_network',
  'portgroup_uuid',
  'pxe_enabled',
];
const DEFAULT_RETURN_FIELDS = ['uuid', 'address'];
const INVALID_SORT_KEYS = ['extra', 'internal_info', 'local_link_connection'];
const BODY_FIELDS = [
  'address',
  'extra',
  'internal_info',
  'is_smartnic',
  'local_link_connection',
  'physical_network',
  'pxe_enabled',
];

type PortField = keyof typeof PORT_FIELD_FEATURES;

/** _check_allowed_port_fields: 406 for a field below its version. */
function checkAllowedPortFields(
  request: FastifyRequest,
  fields: Iterable<string> | undefined,
): void {
  if (fields === undefined) return;
  for (const field of fields) {
    if (field === 'internal_info' || !Object.hasOwn(PORT_FIELD_FEATURES, field)) continue;
    const gate = FEATURES[PORT_FIELD_FEATURES[field as PortField]];
    if (!request.microversion.atLeast(gate)) throw new NotAcceptableError();
  }
}

/** convert_with_links, then the fields of later versions hidden and those asked for kept. */
async function portBody(
  request: FastifyRequest,
  relations: PortRelations,
  port: PortObject,
  fields?: readonly string[],
): Promise<Record<string, unknown>> {
  const body = objectToDict(port, BODY_FIELDS);
  body.node_uuid = await relations.nodeUuid(port.get('node_id'));
  body.links = selfLinks(publicUrl(request), 'ports', String(port.get('uuid')));
  body.portgroup_uuid = await relations.portgroupUuid(port.get('portgroup_id'));
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  for (const [field, gate] of Object.entries(PORT_FIELD_FEATURES)) {
    if (!request.microversion.atLeast(FEATURES[gate])) delete body[field];
  }
  return keepFields(body, fields);
}

/** Port.get by UUID; anything else is not found. */
async function findPort(request: FastifyRequest, ident: string): Promise<PortObject> {
  return servicesOf(request).store.ports.get(ident);
}

interface Parents {
  readonly node?: string;
  readonly portgroup?: string;
}

const LIST_SPECS = {
  node: { validate: args.uuidOrName },
  node_uuid: { validate: args.uuid },
  address: { validate: macAddressArg },
  marker: { validate: args.uuid },
  limit: { validate: args.integer },
  sort_key: { validate: args.string },
  sort_dir: { validate: args.string },
};

async function portsCollection(
  request: FastifyRequest,
  params: Params,
  url: string,
  fields: readonly string[] | undefined,
  detail: boolean | undefined,
) {
  const limit = checkLimit(request, params.limit as number | undefined);
  const sortDir = checkSortDir((params.sort_dir as string | undefined) ?? 'asc');
  const sortKey = (params.sort_key as string | undefined) ?? 'id';
  const { store } = servicesOf(request);
  const marker = params.marker as string | undefined;
  if (marker !== undefined) await store.ports.get(marker);
  checkSortKey(sortKey, INVALID_SORT_KEYS);
  const node = (params.node_uuid ?? params.node) as string | undefined;
  const portgroupIdent = params.portgroup as string | undefined;
  const shard = params.shard as string[] | undefined;
  if ([node, portgroupIdent, shard].filter((value) => value).length > 1) {
    throw new ClientSideError('Operation not permitted.', 403);
  }
  const page = { limit, marker, sortKey, sortDir };
  // A project that may not list every port sees those of its nodes (owned or leased).
  const project = listProjectOf(request);
  const scope = project === undefined ? {} : { project };
  let ports: PortObject[];
  if (portgroupIdent) {
    const portgroup = await findPortgroup(request, portgroupIdent);
    ports = await store.ports.list({
      ...page,
      filters: { portgroup_id: portgroup.get('id'), ...scope },
    });
  } else if (node) {
    const found = await findNode(request, node);
    ports = await store.ports.list({ ...page, filters: { node_id: found.get('id'), ...scope } });
  } else if (params.address) {
    ports = await store.ports.list({
      ...page,
      filters: { address: params.address as string, ...scope },
    });
  } else if (shard) {
    ports = await store.ports.list({ ...page, filters: { shards: shard, ...scope } });
  } else {
    ports = await store.ports.list({ ...page, filters: scope });
  }
  const relations = new PortRelations(request);
  const bodies = await Promise.all(ports.map((port) => portBody(request, relations, port, fields)));
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (detail !== undefined) parameters.push(['detail', detail]);
  return listBody(
    'ports',
    bodies,
    ports.map((port) => String(port.get('uuid'))),
    { limit, url, base: publicUrl(request), parameters, fields },
  );
}

function checkPortgroupFilter(request: FastifyRequest, params: Params): void {
  if (params.portgroup && !request.microversion.atLeast(FEATURES.portgroupSubresources)) {
    throw new NotAcceptableError();
  }
  if (params.shard !== undefined && !request.microversion.atLeast(FEATURES.nodeShard)) {
    throw minimalVersionRequired(FEATURES.nodeShard.text);
  }
}

function checkNodeFilter(request: FastifyRequest, params: Params): void {
  const node = params.node as string | undefined;
  if (!params.node_uuid && node) {
    if (!request.microversion.atLeast(FEATURES.nodeNames) && !isUuidLike(node)) {
      throw new NotAcceptableError();
    }
  }
}

async function listPorts(request: FastifyRequest, parents: Parents = {}) {
  const params = bindParams(request, {
    ...LIST_SPECS,
    fields: { validate: args.stringList },
    portgroup: { validate: args.uuidOrName },
    detail: { validate: args.boolean },
    shard: { validate: args.stringList },
  });
  if (parents.node !== undefined) params.node = parents.node;
  if (parents.portgroup !== undefined) params.portgroup = parents.portgroup;
  checkFieldsAllowed(request, params.fields);
  checkAllowedPortFields(request, params.fields as string[] | undefined);
  checkAllowedPortFields(request, [(params.sort_key as string | undefined) ?? 'id']);
  checkPortgroupFilter(request, params);
  const detail = params.detail as boolean | undefined;
  const fields = returnFields(
    request,
    params.fields as string[] | undefined,
    detail,
    DEFAULT_RETURN_FIELDS,
  );
  checkNodeFilter(request, params);
  return portsCollection(request, params, 'ports', fields, detail);
}

async function listPortsDetail(request: FastifyRequest, parents: Parents = {}) {
  const params = bindParams(request, {
    ...LIST_SPECS,
    portgroup: { validate: args.uuidOrName },
    shard: { validate: args.stringList },
  });
  if (parents.node !== undefined) params.node = parents.node;
  if (parents.portgroup !== undefined) params.portgroup = parents.portgroup;
  checkAllowedPortFields(request, [(params.sort_key as string | undefined) ?? 'id']);
  checkPortgroupFilter(request, params);
  checkNodeFilter(request, params);
  const parent = pathOf(request.raw).seen.split('/').slice(0, -1).at(-1);
  if (parent !== 'ports') throw new ClientSideError('Resource could not be found.', 404);
  return portsCollection(request, params, 'ports/detail', undefined, undefined);
}

const show: Handler = async (request) => {
  const { port } = request.params as { port: string };
  const params = bindParams(request, { fields: { validate: args.stringList } });
  args.uuid('port_uuid', port);
  const found = await findPort(request, port);
  const fields = params.fields as string[] | undefined;
  checkFieldsAllowed(request, fields);
  checkAllowedPortFields(request, fields);
  return portBody(request, new PortRelations(request), found, fields);
};

/** replace_node_uuid_with_id: the port's node, an unknown one being 400. */
async function nodeOfBody(request: FastifyRequest, uuid: unknown) {
  return withStatus(400, [NotFoundError], async () => {
    if (!isUuidLike(uuid)) throw new NotFoundError('node', String(uuid));
    return servicesOf(request).store.nodes.get(String(uuid));
  });
}

const create: Handler = async (request, reply) => {
  const params = bindParams(request, { port: { validate: PORT_VALIDATOR } }, { bodyArg: 'port' });
  const values = { ...(params.port as Record<string, unknown>) };
  const node = await nodeForCreate(request, 'baremetal:port:create', () =>
    nodeOfBody(request, values.node_uuid),
  );
  delete values.node_uuid;
  checkAllowedPortFields(request, Object.keys(values));
  const { store, conductors } = servicesOf(request);
  let portgroup: Awaited<ReturnType<typeof store.portgroups.get>> | undefined;
  if (values.portgroup_uuid) {
    portgroup = await withStatus(400, [NotFoundError], () =>
      store.portgroups.get(String(values.portgroup_uuid)),
    );
    if (portgroup.get('node_id') !== node.get('id')) {
      throw new ClientSideError(
        'Port can not be added to a portgroup belonging to a different node.',
      );
    }
    values.portgroup_id = portgroup.get('id');
  }
  delete values.portgroup_uuid;
  if (values.is_smartnic) {
    try {
      localLinkSmartNic('local_link_connection', values.local_link_connection);
    } catch {
      throw new InvalidError(
        'Smart NIC port must have port_id and hostname in local_link_connection',
      );
    }
  }
  if (
    values.physical_network !== undefined &&
    values.physical_network !== null &&
    !values.physical_network
  ) {
    throw new InvalidError('A non-empty value is required when setting physical_network');
  }
  if (portgroup && values.pxe_enabled && !portgroup.get('standalone_ports_supported')) {
    throw new ClientSideError(
      `Port group ${portgroup.get('uuid')} doesn't support standalone ports. This port cannot be created as a member of that portgroup as the port's 'pxe_enabled' field was set to True.`,
      409,
    );
  }
  const port = Port.create({ node_id: node.get('id') });
  for (const [field, value] of Object.entries(values)) {
    if (field === 'uuid' && !value) continue;
    port.assign(field, value);
  }
  if (!port.isSet('uuid') || port.get('uuid') === null) port.set('uuid', crypto.randomUUID());
  const created = await conductors.createPort(node, port);
  reply
    .code(201)
    .header('location', buildUrl(publicUrl(request), 'ports', String(created.get('uuid'))));
  return portBody(request, new PortRelations(request), created);
};

/** is_path_updated as the real one reads it: only the first operation counts. */
function firstTouches(patch: readonly PatchOperation[], path: string): boolean {
  const first = patch[0];
  return first !== undefined && (first.path === path || first.path.startsWith(`${path}/`));
}

const update: Handler = async (request) => {
  const { port: ident } = request.params as { port: string };
  const params = bindParams(request, { patch: { validate: PATCH_ARG } }, { bodyArg: 'patch' });
  args.uuid('port_uuid', ident);
  const patch = params.patch as PatchOperation[];
  allowedPatchFields(patch, PATCH_ALLOWED_FIELDS);
  const touched = new Set<string>();
  for (const field of [
    'pxe_enabled',
    'local_link_connection',
    'portgroup_uuid',
    'physical_network',
    'is_smartnic',
  ]) {
    const path = `/${field}`;
    const removed = patch.some(
      (p) => p.op === 'remove' && (p.path === path || p.path.startsWith(`${path}/`)),
    );
    if (patchValues(patch, path).length > 0 || removed) touched.add(field);
  }
  checkAllowedPortFields(request, touched);
  const { store, conductors } = servicesOf(request);
  const port = await findPort(request, ident);
  let node = await store.nodes.get(Number(port.get('node_id')));
  let portgroupId = port.get('portgroup_id');
  const current = asDict(port, ['node_id', 'portgroup_id']);
  current.node_uuid = node.get('uuid');
  const relations = new PortRelations(request);
  current.portgroup_uuid = await relations.portgroupUuid(portgroupId);
  const patched = applyJsonPatch(current, patch);
  if (firstTouches(patch, '/portgroup_uuid')) {
    portgroupId = patched.portgroup_uuid
      ? (
          await withStatus(400, [NotFoundError], () =>
            store.portgroups.get(String(patched.portgroup_uuid)),
          )
        ).get('id')
      : null;
  }
  if (patched.node_uuid !== node.get('uuid')) {
    node = await withStatus(400, [NotFoundError, InvalidParameterError], () =>
      store.nodes.get(String(patched.node_uuid)),
    );
  }
  if (portgroupId !== null && portgroupId !== 0) {
    // The rule of port creation, kept on a move: the real service fails such an update
    // with a 500 (docs/baremetal.md); a port may not join another node's group.
    const group = await store.portgroups.get(portgroupId);
    if (group.get('node_id') !== node.get('id')) {
      throw new ClientSideError(
        'Port can not be added to a portgroup belonging to a different node.',
      );
    }
  }
  const schemaFields = Object.keys(PORT_SCHEMA.properties as object);
  for (const field of Object.keys(patched))
    if (!schemaFields.includes(field)) delete patched[field];
  const valid = PORT_VALIDATOR('patch', patched) as Record<string, unknown>;
  const values: Record<string, unknown> = { node_id: node.get('id'), portgroup_id: portgroupId };
  for (const field of Port.fieldNames) {
    if (schemaFields.includes(field)) values[field] = valid[field] ?? null;
  }
  updateChangedFields(port, values);
  if (
    node.get('provision_state') === 'inspecting' &&
    request.microversion.atLeast(FEATURES.inspectWaitState)
  ) {
    throw new ClientSideError(
      `Cannot update port "${port.get('uuid')}" on "${node.get('uuid')}" while it is in state "inspecting".`,
      409,
    );
  }
  const physnet = port.get('physical_network');
  if (firstTouches(patch, '/physical_network') && physnet !== null && !physnet) {
    throw new InvalidError('A non-empty value is required when setting physical_network');
  }
  const saved = await conductors.updatePort(node, port);
  return portBody(request, relations, saved);
};

const destroy: Handler = async (request, reply) => {
  const { port: ident } = request.params as { port: string };
  bindParams(request, {});
  args.uuid('port_uuid', ident);
  const port = await findPort(request, ident);
  const { store, conductors } = servicesOf(request);
  const node = await store.nodes.get(Number(port.get('node_id')));
  await conductors.destroyPort(node, port);
  reply.code(204);
  return undefined;
};

const missingUuid: Handler = async () => {
  throw new InvalidParameterError('Missing mandatory parameter: port_uuid');
};

export function registerPortRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/ports',
    {
      GET: async (request) => listPorts(request),
      POST: create,
      PATCH: missingUuid,
      DELETE: missingUuid,
    },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/ports/detail', { GET: async (request) => listPortsDetail(request) });
  declareRoute(
    app,
    '/v1/ports/:port',
    { GET: show, PATCH: update, DELETE: destroy },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/nodes/:node/ports', {
    GET: async (request) => listPorts(request, { node: nodeIdent(request) }),
  });
  declareRoute(app, '/v1/nodes/:node/ports/detail', {
    GET: async (request) => listPortsDetail(request, { node: nodeIdent(request) }),
  });
  declareRoute(app, '/v1/portgroups/:portgroup/ports', {
    GET: async (request) => listPorts(request, { portgroup: portgroupSegment(request, true) }),
  });
  declareRoute(app, '/v1/portgroups/:portgroup/ports/detail', {
    GET: async (request) =>
      listPortsDetail(request, { portgroup: portgroupSegment(request, true) }),
  });
}
