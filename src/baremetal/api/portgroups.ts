/**
 * /v1/portgroups as the real API serves it (controllers/v1/portgroup.py, from 1.23): lists
 * (filters node, address; `fields`, `detail`), `/detail`, show by UUID or name, create, PATCH
 * and delete, and the list under a node (1.24). The API process creates port groups itself
 * (through the store, at the caps in force); changes and deletions go to the node's conductor
 * (update_portgroup, destroy_portgroup over RPC).
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuidLike, type JsonSchema } from '../../python-compat/index.ts';
import { InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { Portgroup, type PortgroupObject } from '../objects/index.ts';
import { listProjectOf, nodeForCreate } from './access.ts';
import { listBody } from './collection.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, HttpAbort, NotAcceptableError, withStatus } from './errors.ts';
import { FEATURES } from './features.ts';
import {
  allowedPatchFields,
  applyJsonPatch,
  type PatchOperation,
  patchValues,
} from './json-patch.ts';
import { buildUrl, publicUrl, selfLinks } from './links.ts';
import { checkLimit, checkSortDir, checkSortKey, returnFields } from './list-params.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import {
  asDict,
  invalidFields,
  keepFields,
  objectToDict,
  updateChangedFields,
} from './object-dict.ts';
import { args, bindParams, isValidLogicalName, type Params } from './params.ts';
import { macAddressArg, PortRelations } from './port-args.ts';
import { findPortgroup, portgroupSegment } from './portgroup-lookup.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { dictValid, PATCH_ARG, schemaArg } from './schema-args.ts';
import { pathOf } from './wsgi-path.ts';

export const PORTGROUP_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    address: { type: ['string', 'null'] },
    extra: { type: ['object', 'null'] },
    mode: { type: ['string', 'null'] },
    name: { type: ['string', 'null'] },
    node_uuid: { type: 'string' },
    properties: { type: ['object', 'null'] },
    standalone_ports_supported: { type: ['string', 'boolean', 'null'] },
    uuid: { type: ['string', 'null'] },
  },
  required: ['node_uuid'],
  additionalProperties: false,
};
const PORTGROUP_VALIDATOR = args.and(
  schemaArg(PORTGROUP_SCHEMA, { noneIsValid: false }),
  dictValid({
    address: macAddressArg,
    node_uuid: args.uuid,
    standalone_ports_supported: args.boolean,
    uuid: args.uuid,
  }),
);
const PATCH_ALLOWED_FIELDS = [
  'address',
  'extra',
  'mode',
  'name',
  'node_uuid',
  'properties',
  'standalone_ports_supported',
];
const DEFAULT_RETURN_FIELDS = ['uuid', 'address', 'name'];
const INVALID_SORT_KEYS = ['extra', 'internal_info', 'properties'];
const BODY_FIELDS = [
  'address',
  'extra',
  'internal_info',
  'mode',
  'name',
  'properties',
  'standalone_ports_supported',
];

/** /v1/portgroups answers from 1.23 (its handlers refuse with a fault before). */
function exposed(request: FastifyRequest): void {
  if (!request.microversion.atLeast(FEATURES.portgroups)) {
    throw new ClientSideError('Resource could not be found.', 404);
  }
}

/** check_allowed_portgroup_fields: `mode` and `properties` from 1.26. */
function checkAllowedFields(request: FastifyRequest, fields: readonly string[] | undefined): void {
  if (fields === undefined) return;
  if (
    (fields.includes('mode') || fields.includes('properties')) &&
    !request.microversion.atLeast(FEATURES.portgroupModeProperties)
  ) {
    throw new NotAcceptableError();
  }
}

async function portgroupBody(
  request: FastifyRequest,
  relations: PortRelations,
  portgroup: PortgroupObject,
  fields?: readonly string[],
): Promise<Record<string, unknown>> {
  const base = publicUrl(request);
  const uuid = String(portgroup.get('uuid'));
  const body = objectToDict(portgroup, BODY_FIELDS);
  body.node_uuid = await relations.nodeUuid(portgroup.get('node_id'));
  body.links = selfLinks(base, 'portgroups', uuid);
  body.ports = selfLinks(base, 'portgroups', `${uuid}/ports`);
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return keepFields(body, fields);
}

const LIST_SPECS = {
  node: { validate: args.uuidOrName },
  address: { validate: macAddressArg },
  marker: { validate: args.uuid },
  limit: { validate: args.integer },
  sort_key: { validate: args.string },
  sort_dir: { validate: args.string },
};

async function portgroupsCollection(
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
  if (marker !== undefined) await store.portgroups.get(marker);
  checkSortKey(sortKey, INVALID_SORT_KEYS);
  const page = { limit, marker, sortKey, sortDir };
  // A project that may not list every portgroup sees those of its nodes (owned or leased).
  const project = listProjectOf(request);
  const scope = project === undefined ? {} : { project };
  let portgroups: PortgroupObject[];
  if (params.node) {
    const node = await findNode(request, params.node as string);
    portgroups = await store.portgroups.list({
      ...page,
      filters: { node_id: node.get('id'), ...scope },
    });
  } else if (params.address) {
    portgroups = await store.portgroups.list({
      ...page,
      filters: { address: params.address as string, ...scope },
    });
  } else {
    portgroups = await store.portgroups.list({ ...page, filters: scope });
  }
  const relations = new PortRelations(request);
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (detail !== undefined) parameters.push(['detail', detail]);
  return listBody(
    'portgroups',
    await Promise.all(portgroups.map((pg) => portgroupBody(request, relations, pg, fields))),
    portgroups.map((pg) => String(pg.get('uuid'))),
    { limit, url, base: publicUrl(request), parameters, fields },
  );
}

async function listPortgroups(request: FastifyRequest, parentNode?: string) {
  const params = bindParams(request, {
    ...LIST_SPECS,
    fields: { validate: args.stringList },
    detail: { validate: args.boolean },
  });
  exposed(request);
  if (parentNode !== undefined) params.node = parentNode;
  const fields = params.fields as string[] | undefined;
  checkAllowedFields(request, fields);
  checkAllowedFields(request, [(params.sort_key as string | undefined) ?? 'id']);
  const detail = params.detail as boolean | undefined;
  const shown = returnFields(request, fields, detail, DEFAULT_RETURN_FIELDS);
  return portgroupsCollection(request, params, 'portgroups', shown, detail);
}

async function listPortgroupsDetail(request: FastifyRequest, parentNode?: string) {
  // Before 1.23 the controller routes `detail` through its lookup, which refuses.
  if (!request.microversion.atLeast(FEATURES.portgroups)) throw new HttpAbort(404);
  const params = bindParams(request, LIST_SPECS);
  exposed(request);
  if (parentNode !== undefined) params.node = parentNode;
  checkAllowedFields(request, [(params.sort_key as string | undefined) ?? 'id']);
  const parent = pathOf(request.raw).seen.split('/').slice(0, -1).at(-1);
  if (parent !== 'portgroups') throw new ClientSideError('Resource could not be found.', 404);
  return portgroupsCollection(request, params, 'portgroups/detail', undefined, undefined);
}

const show: Handler = async (request) => {
  const ident = portgroupSegment(request);
  const params = bindParams(request, { fields: { validate: args.stringList } });
  args.uuidOrName('portgroup_ident', ident);
  exposed(request);
  await servicesOf(request).store.portgroups.get(ident);
  const fields = params.fields as string[] | undefined;
  checkAllowedFields(request, fields);
  const portgroup = await findPortgroup(request, ident, { withSuffix: true });
  return portgroupBody(request, new PortRelations(request), portgroup, fields);
};

/** The node a body names by UUID; an unknown one is 400. */
async function nodeOfBody(request: FastifyRequest, uuid: unknown) {
  return withStatus(400, [NotFoundError], async () => {
    if (!isUuidLike(uuid)) throw new NotFoundError('node', String(uuid));
    return servicesOf(request).store.nodes.get(String(uuid));
  });
}

const create: Handler = async (request, reply) => {
  const params = bindParams(
    request,
    { portgroup: { validate: PORTGROUP_VALIDATOR } },
    { bodyArg: 'portgroup' },
  );
  exposed(request);
  const values = { ...(params.portgroup as Record<string, unknown>) };
  const node = await nodeForCreate(request, 'baremetal:portgroup:create', () =>
    nodeOfBody(request, values.node_uuid),
  );
  delete values.node_uuid;
  if (
    !request.microversion.atLeast(FEATURES.portgroupModeProperties) &&
    (values.mode || isNonEmpty(values.properties))
  ) {
    throw new NotAcceptableError();
  }
  if (values.name && !isValidLogicalName(values.name)) {
    throw new ClientSideError(`Cannot create portgroup with invalid name '${values.name}'`);
  }
  const portgroup = Portgroup.create({ node_id: node.get('id') });
  for (const [field, value] of Object.entries(values)) {
    if (field === 'uuid' && !value) continue;
    portgroup.assign(field, value);
  }
  if (!portgroup.isSet('uuid') || portgroup.get('uuid') === null) {
    portgroup.set('uuid', crypto.randomUUID());
  }
  const created = await servicesOf(request).store.portgroups.create(portgroup);
  const uuid = String(created.get('uuid'));
  reply.code(201).header('location', buildUrl(publicUrl(request), 'portgroups', uuid));
  return portgroupBody(request, new PortRelations(request), created);
};

function isNonEmpty(value: unknown): boolean {
  return value !== null && value !== undefined && Object.keys(value as object).length > 0;
}

/** is_path_updated as the real one reads it: only the first operation counts. */
function firstTouches(patch: readonly PatchOperation[], path: string): boolean {
  const first = patch[0];
  return first !== undefined && (first.path === path || first.path.startsWith(`${path}/`));
}

const update: Handler = async (request) => {
  const ident = portgroupSegment(request);
  const params = bindParams(request, { patch: { validate: PATCH_ARG } }, { bodyArg: 'patch' });
  args.uuidOrName('portgroup_ident', ident);
  exposed(request);
  const { store, conductors } = servicesOf(request);
  const portgroup = await store.portgroups.get(ident);
  let node = await store.nodes.get(Number(portgroup.get('node_id')));
  const patch = params.patch as PatchOperation[];
  if (
    !request.microversion.atLeast(FEATURES.portgroupModeProperties) &&
    (firstTouches(patch, '/mode') || firstTouches(patch, '/properties'))
  ) {
    throw new NotAcceptableError();
  }
  allowedPatchFields(patch, PATCH_ALLOWED_FIELDS);
  for (const name of patchValues(patch, '/name')) {
    if (name && !isValidLogicalName(name)) {
      throw new ClientSideError(
        `Portgroup ${ident}: Cannot change name to invalid name '${String(name)}'`,
      );
    }
  }
  const current = asDict(portgroup, ['node_id']);
  current.node_uuid = node.get('uuid');
  const patched = applyJsonPatch(current, patch);
  if (!Object.hasOwn(patched, 'mode')) {
    throw new ClientSideError("'mode' is a mandatory attribute and can not be removed");
  }
  if (patched.node_uuid !== node.get('uuid')) {
    node = await withStatus(400, [NotFoundError, InvalidParameterError], () =>
      store.nodes.get(String(patched.node_uuid)),
    );
  }
  const schemaFields = Object.keys(PORTGROUP_SCHEMA.properties as object);
  for (const field of Object.keys(patched)) {
    if (!schemaFields.includes(field)) delete patched[field];
  }
  const valid = PORTGROUP_VALIDATOR('patch', patched) as Record<string, unknown>;
  const values: Record<string, unknown> = { node_id: node.get('id') };
  for (const field of Portgroup.fieldNames) {
    if (schemaFields.includes(field)) values[field] = valid[field] ?? null;
  }
  updateChangedFields(portgroup, values);
  if (
    node.get('provision_state') === 'inspecting' &&
    request.microversion.atLeast(FEATURES.inspectWaitState)
  ) {
    throw new ClientSideError(
      `Cannot update portgroup "${portgroup.get('uuid')}" on node "${node.get('uuid')}" while it is in state "inspecting".`,
      409,
    );
  }
  const saved = await conductors.updatePortgroup(node, portgroup);
  return portgroupBody(request, new PortRelations(request), saved);
};

const destroy: Handler = async (request, reply) => {
  const ident = portgroupSegment(request);
  bindParams(request, {});
  args.uuidOrName('portgroup_ident', ident);
  exposed(request);
  const { store, conductors } = servicesOf(request);
  const portgroup = await store.portgroups.get(ident);
  const node = await store.nodes.get(Number(portgroup.get('node_id')));
  await conductors.destroyPortgroup(node, portgroup);
  reply.code(204);
  return undefined;
};

const missingIdent: Handler = async () => {
  throw new InvalidParameterError('Missing mandatory parameter: portgroup_ident');
};

/** Under a node: WebOb's 404 before 1.24 (the node controller does not route there). */
function nodeParent(request: FastifyRequest): string {
  const ident = nodeIdent(request);
  if (!request.microversion.atLeast(FEATURES.portgroupSubresources)) throw new HttpAbort(404);
  return ident;
}

export function registerPortgroupRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/portgroups',
    {
      GET: async (request) => listPortgroups(request),
      POST: create,
      PATCH: missingIdent,
      DELETE: missingIdent,
    },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/portgroups/detail', {
    GET: async (request) => listPortgroupsDetail(request),
  });
  declareRoute(
    app,
    '/v1/portgroups/:portgroup',
    { GET: show, PATCH: update, DELETE: destroy },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/nodes/:node/portgroups', {
    GET: async (request) => listPortgroups(request, nodeParent(request)),
  });
  declareRoute(app, '/v1/nodes/:node/portgroups/detail', {
    GET: async (request) => listPortgroupsDetail(request, nodeParent(request)),
  });
}
