/**
 * /v1/allocations (API 1.52) and /v1/nodes/{node}/allocation as the real API serves them
 * (controllers/v1/allocation.py): list with the node, resource_class, state and owner (1.60)
 * filters, `fields` and pages; show by UUID or name; create (allocation-create.ts); PATCH of
 * `name` and `extra` (1.57), written by the API process itself as the real one does; delete
 * through a conductor (RPC 1.2). Below 1.52 the real controller answers WebOb's 404 to GET
 * and 405 to the rest.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { CONDUCTOR_RPC } from '../rpcapi/versions.ts';
import { accessOf } from './access.ts';
import { allocationAndAuthorize, authorizeOnAllocation } from './allocation-access.ts';
import {
  ALLOCATION_SCHEMA,
  ALLOCATION_VALIDATOR,
  createAllocationFrom,
} from './allocation-create.ts';
import { listAllocationCollection } from './allocation-list.ts';
import { allocationBody, checkAllocationFields } from './allocation-view.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, HttpAbort, NotAcceptableError } from './errors.ts';
import { FEATURES } from './features.ts';
import {
  allowedPatchFields,
  applyJsonPatch,
  type PatchOperation,
  patchValues,
} from './json-patch.ts';
import { buildUrl, publicUrl } from './links.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { asDict, updateChangedFields } from './object-dict.ts';
import { args, bindParams, isValidLogicalName } from './params.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { PATCH_ARG } from './schema-args.ts';

/** AllocationsController._route: below 1.52, WebOb's 404 to GET and 405 to the rest. */
function allocationsRouted(request: FastifyRequest): void {
  if (request.microversion.atLeast(FEATURES.allocations)) return;
  throw new HttpAbort(
    request.method === 'GET' ? 404 : 405,
    'The API version does not allow allocations',
  );
}

function identOf(request: FastifyRequest): string {
  return (request.params as { allocation: string }).allocation;
}

/** The RPC 1.2 methods need a cap that allows them (a 406 otherwise, docs/releases.md). */
function checkRpcCap(request: FastifyRequest): void {
  if (!servicesOf(request).conductors.canSend(CONDUCTOR_RPC.named.allocations)) {
    throw new NotAcceptableError(
      'Request not acceptable. Allocations need conductor RPC API 1.2, above the version cap in force',
    );
  }
}

const list: Handler = async (request) => {
  allocationsRouted(request);
  const params = bindParams(request, {
    node: { validate: args.uuidOrName },
    resource_class: { validate: args.string },
    state: { validate: args.string },
    marker: { validate: args.uuid },
    limit: { validate: args.integer },
    sort_key: { validate: args.string },
    sort_dir: { validate: args.string },
    fields: { validate: args.stringList },
    owner: { validate: args.string },
  });
  let owner = params.owner as string | undefined;
  const requestor = accessOf(request)?.listProject('allocation', owner) ?? owner;
  const fields = params.fields as string[] | undefined;
  checkAllocationFields(request, fields);
  if (owner !== undefined && !request.microversion.atLeast(FEATURES.allocationOwner)) {
    throw new NotAcceptableError();
  }
  if (owner !== undefined && requestor !== undefined && owner !== requestor) {
    throw new ClientSideError('Not authorized.', 403);
  }
  if (requestor !== undefined) owner = requestor;
  return listAllocationCollection(request, {
    node: params.node as string | undefined,
    resourceClass: params.resource_class as string | undefined,
    state: params.state as string | undefined,
    owner,
    marker: params.marker as string | undefined,
    limit: params.limit as number | undefined,
    sortKey: (params.sort_key as string | undefined) ?? 'id',
    sortDir: (params.sort_dir as string | undefined) ?? 'asc',
    fields,
  });
};

const show: Handler = async (request) => {
  allocationsRouted(request);
  const ident = identOf(request);
  const params = bindParams(request, { fields: { validate: args.stringList } });
  args.uuidOrName('allocation_ident', ident);
  const allocation = await allocationAndAuthorize(request, 'baremetal:allocation:get', ident);
  const fields = params.fields as string[] | undefined;
  checkAllocationFields(request, fields);
  return allocationBody(request, allocation, fields);
};

const create: Handler = async (request, reply) => {
  allocationsRouted(request);
  const params = bindParams(
    request,
    { allocation: { validate: ALLOCATION_VALIDATOR } },
    { bodyArg: 'allocation' },
  );
  const created = await createAllocationFrom(request, params.allocation as Record<string, unknown>);
  const uuid = String(created.get('uuid'));
  reply.code(201).header('location', buildUrl(publicUrl(request), 'allocations', uuid));
  return allocationBody(request, created);
};

const PATCH_ALLOWED_FIELDS = ['name', 'extra'];

const update: Handler = async (request) => {
  allocationsRouted(request);
  const ident = identOf(request);
  const params = bindParams(
    request,
    { patch: { validate: PATCH_ARG, required: true } },
    { bodyArg: 'patch' },
  );
  if (!request.microversion.atLeast(FEATURES.allocationUpdate)) {
    throw new ClientSideError('The API version does not allow updating allocations', 405);
  }
  const allocation = await allocationAndAuthorize(request, 'baremetal:allocation:update', ident);
  const patch = params.patch as PatchOperation[];
  checkAllocationFields(request, allowedPatchFields(patch, PATCH_ALLOWED_FIELDS));
  for (const name of patchValues(patch, '/name')) {
    if (name && !isValidLogicalName(name)) {
      throw new InvalidError(`Cannot update allocation with invalid name '${String(name)}'`);
    }
  }
  const patched = applyJsonPatch(asDict(allocation), patch);
  const schemaFields = Object.keys(ALLOCATION_SCHEMA.properties as object);
  for (const field of Object.keys(patched)) {
    if (!schemaFields.includes(field)) delete patched[field];
  }
  ALLOCATION_VALIDATOR('patch', patched);
  const values: Record<string, unknown> = {};
  for (const field of schemaFields) {
    if (field !== 'node') values[field] = patched[field] ?? null;
  }
  updateChangedFields(allocation, values);
  const saved = await servicesOf(request).store.allocations.save(allocation);
  return allocationBody(request, saved);
};

const destroy: Handler = async (request, reply) => {
  allocationsRouted(request);
  const ident = identOf(request);
  bindParams(request, {});
  args.uuidOrName('allocation_ident', ident);
  const allocation = await allocationAndAuthorize(request, 'baremetal:allocation:delete', ident);
  checkRpcCap(request);
  await servicesOf(request).conductors.destroyAllocation(allocation);
  reply.code(204);
  return undefined;
};

/** POST /v1/allocations/{x}: pecan binds the segment to the body argument. */
const createUnder: Handler = async (request) => {
  allocationsRouted(request);
  ALLOCATION_VALIDATOR('allocation', identOf(request));
  throw new ClientSideError('Resource could not be found.', 404);
};

const missingIdent: Handler = async (request) => {
  allocationsRouted(request);
  throw new InvalidParameterError('Missing mandatory parameter: allocation_ident');
};

/** The node's segment and the version check of the node controller's `_lookup`. */
function nodeAllocationRouted(request: FastifyRequest): string {
  const ident = nodeIdent(request);
  if (!request.microversion.atLeast(FEATURES.allocations)) throw new HttpAbort(404);
  return ident;
}

/** GET /v1/nodes/{node}/allocation: the node's allocation, or the real 404. */
const showOfNode: Handler = async (request) => {
  const ident = nodeAllocationRouted(request);
  const params = bindParams(request, { fields: { validate: args.stringList } });
  const fields = params.fields as string[] | undefined;
  const page = await listAllocationCollection(request, {
    node: ident,
    parentNode: ident,
    sortKey: 'id',
    sortDir: 'asc',
    fields,
  });
  const first = (page.allocations as Record<string, unknown>[])[0];
  if (first === undefined) {
    throw new NotFoundError('allocation', ident, `Allocation for node ${ident} was not found`);
  }
  return first;
};

/** DELETE /v1/nodes/{node}/allocation. */
const destroyOfNode: Handler = async (request, reply) => {
  const ident = nodeAllocationRouted(request);
  bindParams(request, {});
  const access = accessOf(request);
  const node = access
    ? await access.visibleNode(ident)
    : await findNode(request, ident, { withSuffix: true });
  const [allocation] = await servicesOf(request).store.allocations.list({
    node_id: Number(node.get('id')),
  });
  if (allocation === undefined) {
    throw new NotFoundError('allocation', ident, `Allocation for node ${ident} was not found`);
  }
  authorizeOnAllocation(request, 'baremetal:allocation:delete', allocation.get('owner'));
  checkRpcCap(request);
  await servicesOf(request).conductors.destroyAllocation(allocation);
  reply.code(204);
  return undefined;
};

export function registerAllocationRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/allocations',
    { GET: list, POST: create, PATCH: missingIdent, DELETE: missingIdent },
    COLLECTION_METHODS,
  );
  declareRoute(
    app,
    '/v1/allocations/:allocation',
    { GET: show, PATCH: update, DELETE: destroy, POST: createUnder },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/nodes/:node/allocation', { GET: showOfNode, DELETE: destroyOfNode });
}
