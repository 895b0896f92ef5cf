/**
 * A page of allocations (AllocationsController._get_allocations_collection): limit, sort and
 * marker checked as the real one checks them, a project caller narrowed to its own allocations
 * unless `list_all` allows more, the node filter resolved (an unknown node is a 400, as the
 * real one answers it, even under /v1/nodes/{node}/allocation), each allocation's `get` rule
 * checked, and the `next` link repeating `sort_key`, `sort_dir` and `fields`.
 */
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../common/errors.ts';
import type { AllocationFilters } from '../db/allocation-store.ts';
import { accessOf, ownershipOf, PolicyForbiddenError } from './access.ts';
import { authorizeOnAllocation, callerValues, policyAllows } from './allocation-access.ts';
import { allocationDict, sanitizeAllocation } from './allocation-view.ts';
import { listBody } from './collection.ts';
import { servicesOf } from './context.ts';
import { ClientSideError, Restatused } from './errors.ts';
import { publicUrl } from './links.ts';
import { checkLimit, checkSortDir, checkSortKey } from './list-params.ts';
import { findNode } from './node-lookup.ts';

const INVALID_SORT_KEYS = ['extra', 'candidate_nodes', 'traits'];

export interface AllocationListQuery {
  readonly node?: string | undefined;
  readonly resourceClass?: string | undefined;
  readonly state?: string | undefined;
  readonly owner?: string | undefined;
  readonly marker?: string | undefined;
  readonly limit?: number | undefined;
  readonly sortKey: string;
  readonly sortDir: string;
  readonly fields?: readonly string[] | undefined;
  /** The node of /v1/nodes/{node}/allocation: no narrowing to the caller's project. */
  readonly parentNode?: string;
}

/** The node filter's node id: not found is a 400, not visible a 404 (the real NotFound). */
async function nodeIdOf(request: FastifyRequest, ident: string) {
  let found: Awaited<ReturnType<typeof findNode>>;
  try {
    found = await findNode(request, ident);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Restatused(error, 400);
    throw error;
  }
  try {
    accessOf(request)?.authorizeOnNode('baremetal:node:get', ownershipOf(found));
  } catch (error) {
    if (!(error instanceof PolicyForbiddenError)) throw error;
    throw new ClientSideError('Resource could not be found.', 404);
  }
  return Number(found.get('id'));
}

export async function listAllocationCollection(
  request: FastifyRequest,
  query: AllocationListQuery,
): Promise<Record<string, unknown>> {
  const limit = checkLimit(request, query.limit);
  const sortDir = checkSortDir(query.sortDir);
  checkSortKey(query.sortKey, INVALID_SORT_KEYS);
  let owner = query.owner;
  const values = callerValues(request);
  if (
    query.parentNode === undefined &&
    values.system_scope !== 'all' &&
    !policyAllows(request, 'baremetal:allocation:list_all')
  ) {
    owner = (values.project_id as string | undefined) ?? undefined;
  }
  const { store } = servicesOf(request);
  if (query.marker !== undefined) await store.allocations.get(query.marker);
  const filters: AllocationFilters = {
    ...(query.node === undefined ? {} : { node_id: await nodeIdOf(request, query.node) }),
    ...(query.resourceClass === undefined ? {} : { resource_class: query.resourceClass }),
    ...(query.state === undefined ? {} : { state: query.state }),
    ...(owner === undefined ? {} : { owner }),
  };
  const allocations = await store.allocations.list(filters, {
    limit,
    ...(query.marker === undefined ? {} : { marker: query.marker }),
    sortKey: query.sortKey,
    sortDir,
  });
  for (const allocation of allocations) {
    authorizeOnAllocation(request, 'baremetal:allocation:get', allocation.get('owner'));
  }
  const items: Record<string, unknown>[] = [];
  for (const allocation of allocations) {
    items.push(await allocationDict(request, allocation, query.fields));
  }
  const body = listBody(
    'allocations',
    items,
    allocations.map((allocation) => String(allocation.get('uuid'))),
    {
      limit,
      url: 'allocations',
      base: publicUrl(request),
      parameters: [
        ['sort_key', query.sortKey],
        ['sort_dir', sortDir],
      ],
      fields: query.fields,
    },
  );
  for (const item of items) sanitizeAllocation(request, item, query.fields);
  return body;
}
