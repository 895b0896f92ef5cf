/**
 * The cap check of the node actions of conductor RPC 1.4 (the console, inject NMI, boot mode and
 * secure boot, indicators): under a cap below 1.4 (pinned to zed, or automatic caps while a zed
 * conductor lives) the API does not send them, and answers 406 after its own checks, as for
 * allocations (RPC 1.2). The real service, whose zed RPC API already has these methods, goes on.
 */
import type { FastifyRequest } from 'fastify';
import { servicesOf } from './context.ts';
import { NotAcceptableError } from './errors.ts';

export function requireNodeActions(request: FastifyRequest): void {
  if (!servicesOf(request).conductors.canSendNodeActions()) {
    throw new NotAcceptableError(
      'Request not acceptable. This node action needs conductor RPC API 1.4, above the version cap in force',
    );
  }
}
