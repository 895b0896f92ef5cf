/**
 * check_node_policy_and_retrieve inside a handler, for the node sub-resources whose real
 * controller checks the version and its arguments before it looks at the node (BIOS settings,
 * history): a caller who may not see the node is told it does not exist, then the rule itself
 * is a 403. Under `noauth` only the node is looked up.
 */
import type { FastifyRequest } from 'fastify';
import type { NodeObject } from '../objects/index.ts';
import { accessOf } from './access.ts';
import { findNode } from './node-lookup.ts';

export async function nodeWithPolicy(
  request: FastifyRequest,
  rule: string,
  ident: string,
): Promise<NodeObject> {
  const access = accessOf(request);
  if (access !== undefined) return access.nodeAndAuthorize(rule, ident);
  return findNode(request, ident);
}
