/**
 * The serializer seam at both ends of a call (oslo.messaging's
 * `serializer`): the client serializes arguments and deserializes the result,
 * the server the reverse. Baton's ObjectSerializer fits it as is: it sends
 * objects at the pinned version and reads them at the latest.
 */

import type { ObjectRegistry } from '../objects/registry.ts';
import { ObjectSerializer } from '../objects/serializer.ts';
import type { VersionTargets } from '../objects/targets.ts';

/** Turns arguments and results into what travels, and back. */
export interface RpcSerializer {
  /** A value as sent. */
  serializeEntity(entity: unknown): unknown;
  /** A value as received. */
  deserializeEntity(entity: unknown): unknown;
}

/** Passes values through: for APIs that send no versioned objects. */
export const PLAIN_SERIALIZER: RpcSerializer = {
  serializeEntity: (entity) => entity,
  deserializeEntity: (entity) => entity,
};

/** The objects this process knows, sent at the pin's versions (latest when unpinned). */
export function objectRpcSerializer(registry: ObjectRegistry, pin?: VersionTargets): RpcSerializer {
  return new ObjectSerializer(registry, pin);
}
