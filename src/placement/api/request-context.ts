/**
 * What every handler reads from the app and the request: the database, settings and
 * policy (app-wide), the caller's credentials (per request, set by the auth hook:
 * src/auth/fastify-auth.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.ts';
import { type Credentials, type PolicyEnforcer, PolicyScopeError } from '../../policy/index.ts';
import type { PlacementConfig } from '../config.ts';
import type { ResourceClassCache } from '../store/resource-class-cache.ts';
import type { PlacementTables } from '../store/tables.ts';
import { forbidden, PlacementHttpError } from './errors.ts';

export interface PlacementServices {
  readonly db: Database<PlacementTables>;
  readonly config: PlacementConfig;
  readonly policy: PolicyEnforcer;
  /** Resource class names and ids, shared by every handler of the process. */
  readonly resourceClasses: ResourceClassCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    placement: PlacementServices;
  }
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function credentialsOf(request: FastifyRequest): Credentials {
  const credentials = request.credentials;
  if (credentials === undefined) throw new PlacementHttpError(401, '', { outsidePlacement: true });
  return credentials;
}

/**
 * Checks a policy rule; 403 in the real service's words when refused. The default target
 * is the caller's own project and user (what the real service passes for most rules).
 */
export function authorize(
  request: FastifyRequest,
  rule: string,
  target?: Readonly<Record<string, string>>,
): Credentials {
  const credentials = credentialsOf(request);
  // A system-scoped token has no project: Python's None.
  const effective = target ?? {
    project_id: credentials.projectId ?? null,
    user_id: credentials.userId ?? null,
  };
  let allowed: boolean;
  try {
    allowed = request.server.placement.policy.enforce(rule, credentials, effective);
  } catch (error) {
    // A refused scope: the real service's message is the bare rule name.
    if (error instanceof PolicyScopeError) throw forbidden(rule);
    throw error;
  }
  if (!allowed) {
    throw forbidden(`Policy does not allow ${rule} to be performed.`);
  }
  return credentials;
}
