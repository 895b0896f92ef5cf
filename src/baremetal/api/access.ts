/**
 * Who may call what, as the real Ironic's controllers ask its policy (ironic/api/controllers/
 * v1/utils.py): `check_policy` for the system-wide resources, `check_node_policy_and_retrieve`
 * for a node (a project that may not see the node is told it does not exist; one that may see
 * it but not act is refused), the port and portgroup equivalents through their node, and the
 * list checks that narrow a project's lists to the nodes it owns or leases.
 *
 * Each route says its check in ROUTE_ACCESS (route-access.ts); the checks that need no body
 * run in a preParsing hook, before the body is read, so an unauthorized caller's body is never
 * buffered. Checks that need the body are the handlers' (node-access.ts; port and portgroup
 * create: nodeForCreate).
 * Under `noauth` nothing is checked, as Ironic's `authorize` passes everything then.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { credentialsFromHeaders, type RequestCredentials } from '../../auth/request-credentials.ts';
import {
  type PolicyCredentials,
  PolicyScopeError,
  policyCredentials,
  type RuleSet,
} from '../../policy/index.ts';
import { NotFoundError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { ClientSideError } from './errors.ts';
import { findNode } from './node-lookup.ts';
import { findPortgroup } from './portgroup-lookup.ts';
import { ROUTE_ACCESS, type RouteAccess } from './route-access.ts';

/** Ironic's HTTPForbidden: the rule named as the resource denied. */
export class PolicyForbiddenError extends ClientSideError {
  override name = 'PolicyForbiddenError';
  readonly rule: string;
  /** Refused for the token's scope (`enforce_scope`), not by the check. */
  readonly scope: boolean;
  constructor(rule: string, scopeMessage?: string) {
    super(scopeMessage ?? `Access was denied to the following resource: ${rule}`, 403);
    this.rule = rule;
    this.scope = scopeMessage !== undefined;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Ironic's policy under `keystone`; undefined under `noauth` (nothing is checked). */
    baremetalPolicy: RuleSet | undefined;
  }
}

/** The project a list is narrowed to (check_list_policy's answer), by request. */
const listProjects = new WeakMap<FastifyRequest, string>();

/** The project whose nodes (owned or leased) a list may show; undefined: no narrowing. */
export function listProjectOf(request: FastifyRequest): string | undefined {
  return listProjects.get(request);
}

/** Ironic's `to_policy_values`: oslo.context's, plus the project name and the public flag. */
function ironicPolicyValues(
  credentials: RequestCredentials,
  publicApi: boolean,
): PolicyCredentials {
  return {
    ...policyCredentials(credentials),
    project_name: credentials.projectName ?? null,
    is_public_api: publicApi,
  };
}

export interface NodeOwnership {
  readonly owner: string | null;
  readonly lessee: string | null;
}

export function ownershipOf(found: NodeObject | undefined): NodeOwnership {
  return {
    owner: (found?.get('owner') as string | null | undefined) ?? null,
    lessee: (found?.get('lessee') as string | null | undefined) ?? null,
  };
}

/** The target check_owner_policy builds: the caller's values, the node's owner (and lessee if set). */
export function ownerTarget(values: Record<string, unknown>, ownership: NodeOwnership) {
  const target: Record<string, unknown> = { ...values, 'node.owner': ownership.owner };
  if (ownership.lessee) target['node.lessee'] = ownership.lessee;
  return target;
}

/**
 * The checks of one request, or nothing at all under `noauth`. Refusals are Ironic's
 * HTTPForbidden (403, the rule named); a token of a scope the rule is not meant for, under
 * `enforce_scope`, is a 403 naming the rule too (the real service lets oslo.policy's
 * InvalidScope through as a 500: docs/security.md).
 */
export class RequestAccess {
  readonly #request: FastifyRequest;
  readonly #policy: RuleSet;
  readonly #values: PolicyCredentials;

  constructor(
    request: FastifyRequest,
    policy: RuleSet,
    credentials: RequestCredentials,
    options: { readonly publicApi?: boolean } = {},
  ) {
    this.#request = request;
    this.#policy = policy;
    this.#values = ironicPolicyValues(credentials, options.publicApi === true);
  }

  /** Ironic's policy values of the caller. */
  get values(): Readonly<Record<string, unknown>> {
    return this.#values;
  }

  get projectId(): string | null {
    return (this.#values.project_id as string | null) ?? null;
  }

  get systemScoped(): boolean {
    return this.#values.system_scope === 'all';
  }

  /** True when allowed; a scope refusal counts as not allowed (`policy.check`). */
  allows(rule: string, target: Record<string, unknown> = this.#values): boolean {
    try {
      return this.#policy.enforceWith(rule, this.#values, target);
    } catch (error) {
      if (error instanceof PolicyScopeError) return false;
      throw error;
    }
  }

  /** policy.authorize: PolicyForbiddenError when refused. */
  authorize(rule: string, target: Record<string, unknown> = this.#values): void {
    let allowed: boolean;
    try {
      allowed = this.#policy.enforceWith(rule, this.#values, target);
    } catch (error) {
      if (error instanceof PolicyScopeError) {
        throw new PolicyForbiddenError(rule, error.message);
      }
      throw error;
    }
    if (!allowed) throw new PolicyForbiddenError(rule);
  }

  /** check_owner_policy on a node's owner and lessee. */
  authorizeOnNode(rule: string, ownership: NodeOwnership): void {
    this.authorize(rule, ownerTarget(this.#values, ownership));
  }

  /**
   * check_node_policy_and_retrieve: a caller who may not see the node is told it does not exist
   * (NodeNotFound naming what it asked for), then the rule itself is a 403.
   */
  async nodeAndAuthorize(rule: string, ident: string): Promise<NodeObject> {
    const found = await this.visibleNode(ident);
    this.authorizeOnNode(rule, ownershipOf(found));
    return found;
  }

  /** The node, if the caller may see it; else NodeNotFound (a scope refusal stays a 403). */
  async visibleNode(ident: string): Promise<NodeObject> {
    const found = await findNode(this.#request, ident, { withSuffix: true });
    try {
      this.authorizeOnNode('baremetal:node:get', ownershipOf(found));
    } catch (error) {
      if (error instanceof PolicyForbiddenError && !error.scope) {
        throw new NotFoundError('node', ident);
      }
      throw error;
    }
    return found;
  }

  /** check_list_policy: the project to narrow the list to, or `requested` (`?project=`). */
  listProject(objectType: string, requested: string | undefined): string | undefined {
    try {
      this.authorize(`baremetal:${objectType}:list_all`);
      return requested;
    } catch (error) {
      if (!(error instanceof PolicyForbiddenError)) throw error;
      const own = this.projectId;
      if (!own || (requested && requested !== own)) throw error;
      this.authorize(`baremetal:${objectType}:list`);
      return own;
    }
  }
}

const accesses = new WeakMap<FastifyRequest, RequestAccess>();

/**
 * A create naming its node in the body (port, portgroup): the rule is checked on that node's
 * owner and lessee before a missing node is reported, as the real controllers order them.
 */
export async function nodeForCreate(
  request: FastifyRequest,
  rule: string,
  find: () => Promise<NodeObject>,
): Promise<NodeObject> {
  let found: NodeObject | undefined;
  let missing: unknown;
  try {
    found = await find();
  } catch (error) {
    missing = error;
  }
  accessOf(request)?.authorizeOnNode(rule, ownershipOf(found));
  if (found === undefined) throw missing;
  return found;
}

/** The request's checks; undefined under `noauth`, where nothing is checked. */
export function accessOf(request: FastifyRequest): RequestAccess | undefined {
  const known = accesses.get(request);
  if (known !== undefined) return known;
  const policy = request.server.baremetalPolicy;
  const credentials = request.credentials;
  if (policy === undefined || credentials === undefined) return undefined;
  const access = new RequestAccess(request, policy, credentials);
  accesses.set(request, access);
  return access;
}

/**
 * The checks of a public route (the ramdisk's lookup and heartbeat) under Keystone: no token is
 * asked for there, so the caller is anonymous with `is_public_api` true, as Ironic's context on
 * its public routes; node views then hide what an anonymous caller may not see. Undefined
 * under `noauth`.
 */
export function publicRouteAccessOf(request: FastifyRequest): RequestAccess | undefined {
  const known = accessOf(request);
  if (known !== undefined) return known;
  const policy = request.server.baremetalPolicy;
  if (policy === undefined) return undefined;
  const access = new RequestAccess(request, policy, credentialsFromHeaders({}), {
    publicApi: true,
  });
  accesses.set(request, access);
  return access;
}

function lastValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return lastValue(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

async function nodeOfPort(request: FastifyRequest, nodeId: unknown): Promise<NodeOwnership> {
  try {
    return ownershipOf(await request.server.baremetal.store.nodes.get(Number(nodeId)));
  } catch (error) {
    // A port whose node is gone: no owner, no lessee.
    if (error instanceof NotFoundError) return ownershipOf(undefined);
    throw error;
  }
}

async function checkRoute(request: FastifyRequest, access: RequestAccess, route: RouteAccess) {
  const params = request.params as Record<string, string>;
  const query = request.query as Record<string, unknown>;
  const { store } = request.server.baremetal;
  switch (route.kind) {
    case 'authenticated':
    case 'inHandler':
      return;
    case 'system':
      access.authorize(route.rule);
      return;
    case 'node': {
      const ident = route.query
        ? (lastValue(query.node) ?? lastValue(query.node_uuid))
        : (params.node as string);
      // Without a node the handler answers its own error; below `since`, its 404.
      if (ident === undefined) return;
      if (route.since !== undefined && !request.microversion.atLeast(route.since)) return;
      await access.nodeAndAuthorize(route.rule, ident);
      return;
    }
    case 'nodeDelete': {
      const ident = params.node as string;
      try {
        await access.nodeAndAuthorize('baremetal:node:delete', ident);
      } catch (error) {
        // CONF.api.project_admin_can_manage_own_nodes (on by default).
        if (!(error instanceof PolicyForbiddenError)) throw error;
        await access.nodeAndAuthorize('baremetal:node:delete:self_owned_node', ident);
      }
      return;
    }
    case 'nodeCreate':
      if (!access.allows('baremetal:node:create:self_owned_node')) {
        access.authorize('baremetal:node:create');
      }
      return;
    case 'nodeVisible':
      await access.visibleNode(params.node as string);
      return;
    case 'nodeList': {
      const project = access.listProject('node', lastValue(query.project));
      if (project !== undefined) listProjects.set(request, project);
      return;
    }
    case 'portList': {
      if (route.parent !== undefined) {
        let ownership: NodeOwnership;
        let concealed: Error;
        if (route.parent === 'portgroup') {
          const group = await findPortgroup(request, params.portgroup as string);
          ownership = await nodeOfPort(request, group.get('node_id'));
          concealed = new NotFoundError('portgroup', params.portgroup as string);
        } else {
          const found = await findNode(request, params.node as string);
          ownership = ownershipOf(found);
          concealed = new NotFoundError('node', String(found.get('uuid')));
        }
        try {
          access.authorizeOnNode('baremetal:node:get', ownership);
        } catch (error) {
          if (error instanceof PolicyForbiddenError && !error.scope) throw concealed;
          throw error;
        }
      }
      const kind = route.portgroup ? 'portgroup' : 'port';
      try {
        access.authorize(`baremetal:${kind}:list_all`);
      } catch (error) {
        if (!(error instanceof PolicyForbiddenError) || !access.projectId) throw error;
        access.authorize(`baremetal:${kind}:list`);
        listProjects.set(request, access.projectId);
      }
      return;
    }
    case 'port': {
      const ident = (route.portgroup ? params.portgroup : params.port) as string;
      const nodeId = route.portgroup
        ? (await findPortgroup(request, ident, { withSuffix: true })).get('node_id')
        : (await store.ports.get(ident)).get('node_id');
      const ownership = await nodeOfPort(request, nodeId);
      try {
        access.authorizeOnNode('baremetal:node:get', ownership);
      } catch (error) {
        if (error instanceof PolicyForbiddenError && !error.scope) {
          throw new NotFoundError(route.portgroup ? 'portgroup' : 'port', ident);
        }
        throw error;
      }
      access.authorizeOnNode(route.rule, ownership);
      return;
    }
  }
}

/**
 * The checks that need no body, in a preParsing hook: the body of a refused request is never
 * read (the unread-body discard bounds what is drained). A route without an entry is refused:
 * a route added without its check fails closed.
 */
export function registerAccessChecks(app: FastifyInstance, policy: RuleSet | undefined): void {
  app.decorate('baremetalPolicy', policy);
  if (policy === undefined) return;
  app.addHook('preParsing', async (request, _reply, payload) => {
    const access = accessOf(request);
    // The public routes carry no credentials and check nothing.
    if (access === undefined) return payload;
    const key = `${request.method} ${request.routeOptions.url ?? ''}`;
    const route = ROUTE_ACCESS[key];
    if (route === undefined) {
      if (request.is404 || isMethodRefusal(request)) return payload;
      throw new PolicyForbiddenError(key);
    }
    await checkRoute(request, access, route);
    return payload;
  });
}

/** The 405 every declared URL answers to the methods it does not serve. */
function isMethodRefusal(request: FastifyRequest): boolean {
  return (
    (request.routeOptions.config as { methodRefusal?: boolean } | undefined)?.methodRefusal === true
  );
}
