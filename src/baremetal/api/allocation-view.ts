/**
 * An allocation as the real API shows it (allocation.convert_with_links and
 * allocation_sanitize): uuid, timestamps, candidate_nodes, extra, last_error, name, owner,
 * resource_class, state, traits, links and node_uuid (its node's, null when it has none or the
 * node is gone); `owner` hidden below 1.60; only the fields asked for (and links) when `fields`
 * were given, an unknown one refused. `conductor_affinity` and `node_id` are never shown.
 */
import type { FastifyRequest } from 'fastify';
import { InvalidParameterError, NotFoundError } from '../common/errors.ts';
import type { AllocationObject } from '../objects/index.ts';
import { servicesOf } from './context.ts';
import { NotAcceptableError } from './errors.ts';
import { FEATURES } from './features.ts';
import { publicUrl, selfLinks } from './links.ts';
import { invalidFields, keepFields, objectToDict } from './object-dict.ts';

const SHOWN = [
  'candidate_nodes',
  'extra',
  'last_error',
  'name',
  'owner',
  'resource_class',
  'state',
  'traits',
] as const;

/** Every key a body can have: what `fields` may name. */
export const ALLOCATION_BODY_FIELDS = [
  'uuid',
  'created_at',
  'updated_at',
  ...SHOWN,
  'links',
  'node_uuid',
];

/** _check_allowed_allocation_fields: `owner` named below 1.60 is a 406. */
export function checkAllocationFields(
  request: FastifyRequest,
  fields: Iterable<string> | undefined,
): void {
  if (fields === undefined) return;
  for (const field of fields) {
    if (field === 'owner' && !request.microversion.atLeast(FEATURES.allocationOwner)) {
      throw new NotAcceptableError();
    }
  }
}

/** The uuid of the node with this database id, or null (none, or gone). */
export async function nodeUuidOf(
  request: FastifyRequest,
  nodeId: number | null,
): Promise<string | null> {
  if (!nodeId) return null;
  try {
    return String((await servicesOf(request).store.nodes.get(nodeId)).get('uuid'));
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** convert_with_links, unsanitized: every field, links and node_uuid; `fields` checked. */
export async function allocationDict(
  request: FastifyRequest,
  allocation: AllocationObject,
  fields?: readonly string[],
): Promise<Record<string, unknown>> {
  const body = objectToDict(allocation, SHOWN);
  body.links = selfLinks(publicUrl(request), 'allocations', String(allocation.get('uuid')));
  body.node_uuid = await nodeUuidOf(request, allocation.get('node_id'));
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return body;
}

/** allocation_sanitize: `owner` hidden below 1.60, then only the fields asked for. */
export function sanitizeAllocation(
  request: FastifyRequest,
  body: Record<string, unknown>,
  fields?: readonly string[],
): Record<string, unknown> {
  if (!request.microversion.atLeast(FEATURES.allocationOwner)) delete body.owner;
  return keepFields(body, fields);
}

/** The body of one allocation at the request's version. */
export async function allocationBody(
  request: FastifyRequest,
  allocation: AllocationObject,
  fields?: readonly string[],
): Promise<Record<string, unknown>> {
  return sanitizeAllocation(request, await allocationDict(request, allocation, fields), fields);
}
