/**
 * Finding the port group a request names, as the real API does: the controller's `_lookup`
 * (WebOb's 404 before 1.23, 400 for a segment that is neither a UUID nor a name, 404 for its
 * `/ports` before 1.24) and get_rpc_portgroup (a UUID, else a logical name).
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import { InvalidError } from '../common/errors.ts';
import type { PortgroupObject } from '../objects/index.ts';
import { servicesOf } from './context.ts';
import { HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { isValidLogicalName, pyStr } from './params.ts';
import { pathOf } from './wsgi-path.ts';

/** The `{portgroup}` segment, checked before routing; `ports` for its port lists. */
export function portgroupSegment(request: FastifyRequest, ports = false): string {
  const { portgroup } = request.params as { portgroup: string };
  if (!request.microversion.atLeast(FEATURES.portgroups)) throw new HttpAbort(404);
  if (!isValidLogicalName(portgroup) && !isUuidLike(portgroup)) {
    throw new HttpAbort(400, `Expected UUID or name for portgroup: ${pyStr(portgroup)}`);
  }
  if (ports && !request.microversion.atLeast(FEATURES.portgroupSubresources)) {
    throw new HttpAbort(404);
  }
  return portgroup;
}

async function getRpcPortgroup(request: FastifyRequest, ident: string): Promise<PortgroupObject> {
  const { store } = servicesOf(request);
  if (isUuidLike(ident)) return store.portgroups.get(ident);
  if (isValidLogicalName(ident)) return store.portgroups.getByName(ident);
  throw new InvalidError(`Expected a logical name or UUID but received ${ident}.`);
}

/** get_rpc_portgroup (with `.json` tried too when the URL had the suffix). */
export async function findPortgroup(
  request: FastifyRequest,
  ident: string,
  options: { readonly withSuffix?: boolean } = {},
): Promise<PortgroupObject> {
  try {
    return await getRpcPortgroup(request, ident);
  } catch (error) {
    if (options.withSuffix && pathOf(request.raw).jsonSuffix) {
      return getRpcPortgroup(request, `${ident}.json`);
    }
    throw error;
  }
}
