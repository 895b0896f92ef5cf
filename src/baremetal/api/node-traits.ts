/**
 * /v1/nodes/{node}/traits as the real API serves it (NodeTraitsController, from 1.37): list,
 * replace all (a body `{"traits": […]}`), add one (`/traits/{trait}`, no body), remove one or
 * all. Each trait is CUSTOM_ or a standard one (os-traits); the change is the conductor's
 * (add_node_traits, remove_node_traits over RPC).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CUSTOM_TRAIT_PREFIX,
  type JsonSchema,
  STANDARD_TRAITS,
} from '../../python-compat/index.ts';
import { InvalidError, NodeTraitNotFoundError } from '../common/errors.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, HttpAbort, NotAcceptableError } from './errors.ts';
import { FEATURES } from './features.ts';
import { buildUrl, publicUrl } from './links.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams } from './params.ts';
import { readJsonBody } from './request-body.ts';
import { declareRoute } from './routing.ts';
import { schemaArg } from './schema-args.ts';

export const TRAIT_SCHEMA: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  anyOf: [{ pattern: `^${CUSTOM_TRAIT_PREFIX}[A-Z0-9_]+$` }, { enum: STANDARD_TRAITS }],
};
export const TRAITS_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { traits: { type: 'array', items: TRAIT_SCHEMA } },
  additionalProperties: false,
};
const validTrait = schemaArg(TRAIT_SCHEMA);
const validBody = schemaArg(TRAITS_BODY_SCHEMA);

/** Below 1.37 the real controller does not route to traits (the node's own handlers answer). */
async function traitsRouted(request: FastifyRequest, ident: string): Promise<void> {
  if (request.microversion.atLeast(FEATURES.nodeTraits)) return;
  if (request.method === 'GET') {
    // get_one(node, fields='traits'): the node, then the field refused at this version.
    await findNode(request, ident);
    throw new NotAcceptableError();
  }
  if (request.method === 'DELETE') throw new ClientSideError('Resource could not be found.', 404);
  throw new HttpAbort(405, '', { allow: 'DELETE, GET, PATCH, POST' });
}

const list: Handler = async (request) => {
  const ident = nodeIdent(request);
  await traitsRouted(request, ident);
  bindParams(request, {});
  const node = await findNode(request, ident);
  const traits = await servicesOf(request).store.traits.get(node.get('id'));
  return { traits: traits.get('objects').map((trait) => trait.get('trait')) };
};

async function put(request: FastifyRequest, trait: string | undefined): Promise<void> {
  const ident = nodeIdent(request);
  await traitsRouted(request, ident);
  const params = bindParams(request, { body: { validate: validBody } }, { bodyArg: 'body' });
  if (trait !== undefined) validTrait('trait', trait);
  const node = await findNode(request, ident);
  const body = params.body as Record<string, unknown> | null;
  const traits =
    body && Object.hasOwn(body, 'traits') ? ((body.traits as string[] | null) ?? null) : null;
  if ((trait && traits !== null) || !(trait || traits !== null)) {
    throw new InvalidError(
      'A single node trait may be added via PUT /v1/nodes/<node identifier>/traits/<trait> with no body, or all node traits may be replaced via PUT /v1/nodes/<node identifier>/traits with the list of traits specified in the request body.',
    );
  }
  const { conductors } = servicesOf(request);
  if (trait) {
    const sent = readJsonBody(request);
    if ('value' in sent && sent.value !== undefined && isNonEmpty(sent.value)) {
      throw new InvalidError('No body should be provided when adding a trait');
    }
    await conductors.addNodeTraits(node, [trait], false);
  } else {
    await conductors.addNodeTraits(node, traits ?? [], true);
  }
}

/** Python truth of a JSON body (an empty object or list is no body). */
function isNonEmpty(value: unknown): boolean {
  if (value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

const setAll: Handler = async (request, reply) => {
  await put(request, undefined);
  reply.code(204);
  return undefined;
};

const addOne: Handler = async (request, reply) => {
  const { trait } = request.params as { trait: string };
  await put(request, trait);
  const ident = nodeIdent(request);
  reply.header('location', buildUrl(publicUrl(request), 'nodes', `${ident}/traits/${trait}`));
  reply.code(204);
  return undefined;
};

async function remove(request: FastifyRequest, trait: string | undefined): Promise<void> {
  const ident = nodeIdent(request);
  await traitsRouted(request, ident);
  bindParams(request, {});
  if (trait !== undefined) args.string('trait', trait);
  const node = await findNode(request, ident);
  try {
    await servicesOf(request).conductors.removeNodeTraits(
      node,
      trait === undefined ? undefined : [trait],
    );
  } catch (error) {
    // The real API names the node by UUID here, never by its internal id.
    if (error instanceof NodeTraitNotFoundError) {
      throw new ClientSideError(`Node ${node.get('uuid')} doesn't have a trait '${trait}'`, 404);
    }
    throw error;
  }
}

const removeAll: Handler = async (request, reply) => {
  await remove(request, undefined);
  reply.code(204);
  return undefined;
};

const removeOne: Handler = async (request, reply) => {
  const { trait } = request.params as { trait: string };
  await remove(request, trait);
  reply.code(204);
  return undefined;
};

export function registerNodeTraitRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/traits', { GET: list, PUT: setAll, DELETE: removeAll });
  declareRoute(app, '/v1/nodes/:node/traits/:trait', { PUT: addOne, DELETE: removeOne });
}
