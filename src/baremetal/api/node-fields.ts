/**
 * Node fields per version (the real VERSIONED_FIELDS, as NODE_FIELD_FEATURES): a field below
 * its gate is left out of bodies, and naming it in `fields` or `sort_key` is a 406.
 */
import type { FastifyRequest } from 'fastify';
import { NotAcceptableError } from './errors.ts';
import { FEATURES, NODE_FIELD_FEATURES } from './features.ts';

type NodeVersionedField = keyof typeof NODE_FIELD_FEATURES;

/** Whether a node field is shown at the request's version (fields without a gate always are). */
export function nodeFieldAllowed(request: FastifyRequest, field: string): boolean {
  if (!Object.hasOwn(NODE_FIELD_FEATURES, field)) return true;
  const gate = NODE_FIELD_FEATURES[field as NodeVersionedField];
  return request.microversion.atLeast(FEATURES[gate]);
}

// One list per version answered (the negotiator shares one ResolvedVersion per version).
const HIDDEN = new WeakMap<object, readonly string[]>();

/** The node fields hidden at the request's version (computed once per version). */
export function nodeFieldsHidden(request: FastifyRequest): readonly string[] {
  const version = request.microversion;
  let hidden = HIDDEN.get(version);
  if (hidden === undefined) {
    hidden = Object.keys(NODE_FIELD_FEATURES).filter((field) => !nodeFieldAllowed(request, field));
    HIDDEN.set(version, hidden);
  }
  return hidden;
}

/** check_allowed_fields: 406 when a field asked for is not shown at this version. */
export function checkNodeFieldsAllowed(
  request: FastifyRequest,
  fields: readonly string[] | undefined,
): void {
  if (fields === undefined) return;
  for (const field of fields) {
    if (!nodeFieldAllowed(request, field)) throw new NotAcceptableError();
  }
}
