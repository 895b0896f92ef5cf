/**
 * A node allocated to an allocation that has an owner keeps its owner: changing it is the real
 * 409 (the node PATCH's check, which reads the allocation; one gone since counts as none).
 */
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { servicesOf } from './context.ts';
import { ClientSideError } from './errors.ts';

export async function refuseOwnerOfOwnedAllocation(
  request: FastifyRequest,
  node: NodeObject,
): Promise<void> {
  const allocationId = node.get('allocation_id');
  if (!allocationId) return;
  let owner: string | null;
  try {
    owner = (await servicesOf(request).store.allocations.get(allocationId)).get('owner');
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
  if (owner !== null) {
    // The double space is the real message's.
    throw new ClientSideError(
      `Cannot update owner of node "${node.get('uuid')}" while it is allocated to an allocation with an  owner.`,
      409,
    );
  }
}
