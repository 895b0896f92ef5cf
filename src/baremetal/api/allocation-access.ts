/**
 * Finding the allocation a request names and Ironic's policy on allocations
 * (utils.get_rpc_allocation_with_suffix, check_allocation_policy_and_retrieve,
 * check_list_policy('allocation')): the target of a check is the caller's values with
 * `allocation.owner`; a caller who may not see an allocation is told it does not exist. Under
 * `noauth` nothing is checked (accessOf gives nothing).
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import { InvalidError, NotFoundError } from '../common/errors.ts';
import type { AllocationObject } from '../objects/index.ts';
import { accessOf, PolicyForbiddenError } from './access.ts';
import { servicesOf } from './context.ts';
import { isValidLogicalName } from './params.ts';
import { pathOf } from './wsgi-path.ts';

async function getRpcAllocation(request: FastifyRequest, ident: string) {
  const { store } = servicesOf(request);
  if (isUuidLike(ident)) return store.allocations.get(ident);
  if (isValidLogicalName(ident)) return store.allocations.getByName(ident);
  throw new InvalidError(`Expected a logical name or UUID but received ${ident}.`);
}

/** get_rpc_allocation_with_suffix: `<ident>.json` tried too when the URL had the suffix. */
export async function findAllocation(
  request: FastifyRequest,
  ident: string,
): Promise<AllocationObject> {
  try {
    return await getRpcAllocation(request, ident);
  } catch (error) {
    if (error instanceof NotFoundError && pathOf(request.raw).jsonSuffix) {
      return getRpcAllocation(request, `${ident}.json`);
    }
    throw error;
  }
}

/** check_owner_policy('allocation', rule, owner). */
export function authorizeOnAllocation(
  request: FastifyRequest,
  rule: string,
  owner: string | null,
): void {
  const access = accessOf(request);
  access?.authorize(rule, { ...access.values, 'allocation.owner': owner });
}

/** check_allocation_policy_and_retrieve: not visible is not found, then `rule` is a 403. */
export async function allocationAndAuthorize(
  request: FastifyRequest,
  rule: string,
  ident: string,
): Promise<AllocationObject> {
  let allocation: AllocationObject;
  try {
    allocation = await findAllocation(request, ident);
    authorizeOnAllocation(request, 'baremetal:allocation:get', allocation.get('owner'));
  } catch (error) {
    if (error instanceof PolicyForbiddenError && !error.scope) {
      throw new NotFoundError('allocation', ident);
    }
    throw error;
  }
  authorizeOnAllocation(request, rule, allocation.get('owner'));
  return allocation;
}

/** check_policy_true: whether the rule allows the caller (always under noauth). */
export function policyAllows(request: FastifyRequest, rule: string): boolean {
  return accessOf(request)?.allows(rule) ?? true;
}

/** The caller's policy values (none under noauth). */
export function callerValues(request: FastifyRequest): Readonly<Record<string, unknown>> {
  return accessOf(request)?.values ?? {};
}
