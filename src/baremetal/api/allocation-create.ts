/**
 * POST /v1/allocations (AllocationsController.post): the body checked against the real schema,
 * the caller's right to create (and to name another owner), the name, the node of a backfill
 * (1.58; its resource class taken when none is asked), the candidate nodes turned into UUIDs
 * in their order, the UUID (a backfill's node's instance UUID, else a new one), then the
 * conductor asked over RPC 1.2: the node's conductor for a backfill, a random one otherwise.
 * A cap in force below 1.2 is a 406 (docs/releases.md): a conductor of the previous release
 * would not know the method.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isUuidLike, type JsonSchema } from '../../python-compat/index.ts';
import { InvalidError, NotFoundError } from '../common/errors.ts';
import { Allocation, type AllocationObject, type NodeObject } from '../objects/index.ts';
import { CONDUCTOR_RPC } from '../rpcapi/versions.ts';
import { accessOf, PolicyForbiddenError } from './access.ts';
import { callerValues, policyAllows } from './allocation-access.ts';
import { checkAllocationFields } from './allocation-view.ts';
import { servicesOf } from './context.ts';
import { NotAcceptableError, withStatus } from './errors.ts';
import { FEATURES } from './features.ts';
import { findNode } from './node-lookup.ts';
import { TRAIT_SCHEMA } from './node-traits.ts';
import { args, isValidLogicalName } from './params.ts';
import { dictValid, schemaArg } from './schema-args.ts';

export const ALLOCATION_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    candidate_nodes: { type: ['array', 'null'], items: { type: 'string' } },
    extra: { type: ['object', 'null'] },
    name: { type: ['string', 'null'] },
    node: { type: ['string', 'null'] },
    owner: { type: ['string', 'null'] },
    resource_class: { type: ['string', 'null'], maxLength: 80 },
    traits: { type: ['array', 'null'], items: TRAIT_SCHEMA },
    uuid: { type: ['string', 'null'] },
  },
  additionalProperties: false,
};

export const ALLOCATION_VALIDATOR = args.and(
  schemaArg(ALLOCATION_SCHEMA, { noneIsValid: false }),
  dictValid({ uuid: args.uuid }),
);

type Body = Record<string, unknown>;

/** _authorize_create_allocation, under keystone (noauth checks nothing). */
function authorizeCreate(request: FastifyRequest, body: Body): void {
  const access = accessOf(request);
  if (access === undefined) {
    checkAllocationFields(request, Object.keys(body));
    return;
  }
  try {
    access.authorize('baremetal:allocation:create');
    checkAllocationFields(request, Object.keys(body));
    // enforce_new_defaults is off (21.4's default): an allocation without an owner needs the
    // pre-RBAC rule too.
    if (!body.owner) access.authorize('baremetal:allocation:create_pre_rbac');
  } catch (error) {
    if (!(error instanceof PolicyForbiddenError)) throw error;
    const project = access.projectId;
    if (project && body.owner && project !== body.owner) throw error;
    if (body.owner) access.authorize('baremetal:allocation:create_pre_rbac');
    access.authorize('baremetal:allocation:create_restricted');
    checkAllocationFields(request, Object.keys(body));
    body.owner = project;
  }
}

/** The backfill's node (1.58): not found, or not visible, is a 400. */
async function backfillNode(request: FastifyRequest, ident: string): Promise<NodeObject> {
  if (!request.microversion.atLeast(FEATURES.allocationBackfill)) {
    throw new InvalidError('Cannot set node when creating an allocation in this API version');
  }
  return withStatus(400, [NotFoundError], async () => {
    const node = await findNode(request, ident);
    const access = accessOf(request);
    try {
      access?.authorizeOnNode('baremetal:node:get', {
        owner: node.get('owner'),
        lessee: node.get('lessee'),
      });
    } catch (error) {
      if (error instanceof PolicyForbiddenError) throw new NotFoundError('node', ident);
      throw error;
    }
    return node;
  });
}

/** dbapi.check_node_list: each ident (UUID or name) to its node's UUID, in the given order. */
async function candidateUuids(
  request: FastifyRequest,
  idents: readonly string[],
  project: string | null,
): Promise<string[]> {
  const { store } = servicesOf(request);
  const unique = [...new Set(idents)];
  const notFound = (missing: string[]) =>
    new NotFoundError('node', missing.join(', '), `Nodes cannot be found: ${missing.join(', ')}`);
  const malformed = unique.filter((ident) => !isUuidLike(ident) && !isValidLogicalName(ident));
  if (malformed.length > 0) throw notFound(malformed);
  const found = new Map<string, string>();
  for (const ident of unique) {
    let node: NodeObject;
    try {
      node = isUuidLike(ident) ? await store.nodes.get(ident) : await store.nodes.getByName(ident);
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    if (project && node.get('owner') !== project && node.get('lessee') !== project) continue;
    found.set(ident, String(node.get('uuid')));
  }
  const missing = unique.filter((ident) => !found.has(ident));
  if (missing.length > 0) throw notFound(missing);
  return idents.map((ident) => found.get(ident) as string);
}

export async function createAllocationFrom(
  request: FastifyRequest,
  body: Body,
): Promise<AllocationObject> {
  const values = { ...body };
  authorizeCreate(request, values);
  if (values.name && !isValidLogicalName(values.name)) {
    throw new InvalidError(`Cannot create allocation with invalid name '${values.name}'`);
  }
  const node = values.node ? await backfillNode(request, String(values.node)) : undefined;
  if (!values.resource_class) {
    if (node === undefined) {
      throw new InvalidError('The resource_class field is mandatory when not backfilling');
    }
    values.resource_class = node.get('resource_class');
  }
  const candidates = values.candidate_nodes as string[] | null | undefined;
  if (candidates && candidates.length > 0) {
    const restricted = policyAllows(request, 'baremetal:allocation:create_restricted');
    const project = restricted ? null : ((callerValues(request).project_id as string) ?? null);
    values.candidate_nodes = await withStatus(400, [NotFoundError], () =>
      candidateUuids(request, candidates, project),
    );
  }
  if (!values.uuid) values.uuid = node?.get('instance_uuid') || randomUUID();
  const allocation = Allocation.create({});
  for (const field of Allocation.fieldNames) {
    if (Object.hasOwn(values, field)) allocation.assign(field, values[field]);
  }
  if (node !== undefined) allocation.set('node_id', node.get('id'));
  const { conductors } = servicesOf(request);
  if (!conductors.canSend(CONDUCTOR_RPC.named.allocations)) {
    throw new NotAcceptableError(
      'Request not acceptable. Allocations need conductor RPC API 1.2, above the version cap in force',
    );
  }
  return conductors.createAllocation(allocation, node);
}
