/**
 * Ironic's policy on volume connectors and targets (utils.check_volume_list_policy and
 * check_volume_policy_and_retrieve): the target of a check is the caller's values with the
 * owner and lessee of the volume's node; a caller who may not see that node is told the
 * connector or target does not exist. A list under a node first needs the node, named by its
 * UUID (`Node.get_by_uuid`: a name is not found there, as in the real service). Under `noauth`
 * nothing is checked (accessOf gives nothing), but the lookups are made.
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import { NotFoundError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { accessOf, ownershipOf, PolicyForbiddenError } from './access.ts';
import { servicesOf } from './context.ts';

/** check_volume_list_policy: the project a list is narrowed to, if any. */
export async function volumeListProject(
  request: FastifyRequest,
  parentNode: string | undefined,
): Promise<string | undefined> {
  const access = accessOf(request);
  if (parentNode !== undefined) {
    const node = await nodeByUuid(request, parentNode);
    try {
      access?.authorizeOnNode('baremetal:node:get', ownershipOf(node));
    } catch (error) {
      if (error instanceof PolicyForbiddenError && !error.scope) {
        throw new NotFoundError('node', parentNode);
      }
      throw error;
    }
  }
  if (access === undefined) return undefined;
  try {
    access.authorize('baremetal:volume:list_all');
    return undefined;
  } catch (error) {
    if (!(error instanceof PolicyForbiddenError)) throw error;
    const project = access.projectId;
    if (!project) throw error;
    access.authorize('baremetal:volume:list');
    return project;
  }
}

async function nodeByUuid(request: FastifyRequest, uuid: string): Promise<NodeObject> {
  if (!isUuidLike(uuid)) throw new NotFoundError('node', uuid);
  return servicesOf(request).store.nodes.get(uuid);
}

/**
 * check_volume_policy_and_retrieve, once the connector or target is read: its node (undefined
 * when gone), after `baremetal:node:get` (not found as `notFound` when refused) and `rule`.
 */
export async function authorizeOnVolume(
  request: FastifyRequest,
  rule: string,
  nodeId: number | null,
  notFound: () => Error,
): Promise<NodeObject | undefined> {
  let node: NodeObject | undefined;
  if (nodeId !== null) {
    node = await servicesOf(request)
      .store.nodes.get(nodeId)
      .catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
  }
  const access = accessOf(request);
  if (access === undefined) return node;
  const { owner, lessee } = ownershipOf(node);
  const target = { ...access.values, 'node.owner': owner, 'node.lessee': lessee };
  try {
    access.authorize('baremetal:node:get', target);
  } catch (error) {
    if (error instanceof PolicyForbiddenError && !error.scope) throw notFound();
    throw error;
  }
  access.authorize(rule, target);
  return node;
}
