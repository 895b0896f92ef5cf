/**
 * /traits and /resource_providers/{uuid}/traits (from 1.6): listing with filters, custom
 * trait create and delete, and a provider's set of traits read, replaced or cleared under its
 * generation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConcurrentUpdateError } from '../../db/index.ts';
import { CUSTOM_TRAIT_NAME, LIST_TRAITS_QUERY, PROVIDER_TRAITS_BODY } from '../schemas/trait.ts';
import { schemaProblem } from '../schemas/validator.ts';
import { findProvider, type ProviderRow } from '../store/provider-lookup.ts';
import { CUSTOM_PREFIX } from '../store/standard-data.ts';
import {
  createTrait,
  deleteTrait,
  findTrait,
  listTraits,
  setProviderTraits,
  type TraitFilters,
  type TraitRow,
  traitsOfProvider,
} from '../store/traits.ts';
import { newestOf, setCacheHeaders } from './cache-headers.ts';
import { badRequest, conflict, ErrorCodes, notFound } from './errors.ts';
import { FEATURES } from './features.ts';
import { absoluteLocation } from './location.ts';
import { queryValue, validateQuery } from './query.ts';
import { sendJson, sendNoContent } from './reply.ts';
import { checkAcceptsJson, readJsonBody, requireJsonContent } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, since } from './routing.ts';

const RULES = {
  list: 'placement:traits:list',
  show: 'placement:traits:show',
  update: 'placement:traits:update',
  delete: 'placement:traits:delete',
  providerList: 'placement:resource_providers:traits:list',
  providerUpdate: 'placement:resource_providers:traits:update',
  providerDelete: 'placement:resource_providers:traits:delete',
} as const;

const INVALID_TRAIT =
  'The trait is invalid. A valid trait must be no longer than 255 characters, start with ' +
  'the prefix "CUSTOM_" and use following characters: "A"-"Z", "0"-"9" and "_"';
const GENERATION_CHANGED =
  "Resource provider's generation already changed. Please update the generation and try again.";
const CONCURRENT_PROVIDER_UPDATE =
  'Another thread concurrently updated the resource provider data. Please retry your update';

function nameParam(request: FastifyRequest): string {
  return (request.params as { name: string }).name;
}

function uuidParam(request: FastifyRequest): string {
  return (request.params as { uuid: string }).uuid;
}

/** `last-modified` of a trait listing: its newest trait, or now when it is empty. */
function newestTrait(rows: readonly TraitRow[]): Date {
  return newestOf(rows.map((row) => row.updated_at ?? row.created_at));
}

/** `name=in:A,B` or `name=startswith:P`; another operator filters nothing, as in the real service. */
function nameFilter(value: string): TraitFilters {
  const colon = value.indexOf(':');
  if (colon === -1) {
    throw badRequest(
      'Badly formatted name parameter. Expected name query string parameter in form: ' +
        `?name=[in|startswith]:[name1,name2|prefix]. Got: "${value}"`,
    );
  }
  const operator = value.slice(0, colon);
  const operand = value.slice(colon + 1);
  if (operator === 'in') return { nameIn: operand.split(',') };
  if (operator === 'startswith') return { prefix: operand };
  return {};
}

async function list(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.list);
  validateQuery(request, LIST_TRAITS_QUERY);
  const name = queryValue(request, 'name');
  let filters: TraitFilters = name === undefined ? {} : nameFilter(name);
  const associated = queryValue(request, 'associated');
  if (associated !== undefined) {
    const lowered = associated.toLowerCase();
    if (lowered !== 'true' && lowered !== 'false') {
      throw badRequest('The query parameter "associated" only accepts "true" or "false"');
    }
    filters = { ...filters, associated: lowered === 'true' };
  }
  const rows = await listTraits(request.server.placement.db.kysely, filters);
  setCacheHeaders(request, reply, newestTrait(rows));
  return sendJson(reply, 200, { traits: rows.map((row) => row.name) });
}

async function show(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.show);
  const name = nameParam(request);
  const row = await findTrait(request.server.placement.db.kysely, name);
  if (row === undefined) throw notFound(`No such trait(s): ${name}.`);
  setCacheHeaders(request, reply, newestOf([row.created_at]));
  return sendNoContent(reply);
}

async function ensure(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.update);
  const name = nameParam(request);
  if (schemaProblem(CUSTOM_TRAIT_NAME, name) !== undefined) throw badRequest(INVALID_TRAIT);
  const db = request.server.placement.db.kysely;
  let status = 204;
  let createdAt: Date | string | null | undefined = (await findTrait(db, name))?.created_at;
  if (createdAt === undefined) {
    const created = await createTrait(db, name);
    // Undefined: another client created it just now, which is still a 204.
    if (created !== undefined) {
      status = 201;
      createdAt = created;
    }
  }
  reply.header('location', absoluteLocation(request, `/traits/${name}`));
  setCacheHeaders(request, reply, newestOf([createdAt]));
  return reply.code(status).removeHeader('content-type').send();
}

async function remove(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.delete);
  const name = nameParam(request);
  const services = request.server.placement;
  const row = await findTrait(services.db.kysely, name);
  if (row === undefined) throw notFound(`No such trait(s): ${name}.`);
  if (!name.startsWith(CUSTOM_PREFIX)) throw badRequest(`Cannot delete standard trait ${name}.`);
  const outcome = await deleteTrait(services.db, row.id);
  if (outcome === 'in-use') {
    throw conflict(`The trait ${name} is in use by a resource provider.`);
  }
  if (outcome === 'missing') throw notFound(`No such trait(s): ${name}.`);
  return sendNoContent(reply);
}

async function provider(request: FastifyRequest, detailed: boolean): Promise<ProviderRow> {
  const uuid = uuidParam(request);
  const row = await findProvider(request.server.placement.db.kysely, uuid);
  if (row === undefined) {
    const message = `No resource provider with uuid ${uuid} found`;
    // GET words it twice: its own sentence wrapping the lookup's. The others let the
    // lookup's error through, past the handler (no `Vary`).
    if (detailed) throw notFound(`${message}: ${message}`);
    throw notFound(message, { escapesHandler: true });
  }
  return row;
}

/** Replaces the provider's traits; a generation that moved meanwhile is a 409. */
async function replaceTraits(
  request: FastifyRequest,
  row: ProviderRow,
  traitIds: readonly number[],
): Promise<number> {
  try {
    return await setProviderTraits(request.server.placement.db, row, traitIds);
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) {
      throw conflict(CONCURRENT_PROVIDER_UPDATE, { code: ErrorCodes.CONCURRENT_UPDATE });
    }
    throw error;
  }
}

async function listOfProvider(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.providerList);
  const row = await provider(request, true);
  const traits = await traitsOfProvider(request.server.placement.db.kysely, row.id);
  setCacheHeaders(request, reply, newestTrait(traits));
  return sendJson(reply, 200, {
    traits: traits.map((trait) => trait.name),
    resource_provider_generation: row.generation,
  });
}

async function updateOfProvider(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.providerUpdate);
  const body = await readJsonBody<{ traits: string[]; resource_provider_generation: number }>(
    request,
    PROVIDER_TRAITS_BODY,
  );
  const row = await provider(request, false);
  if (row.generation !== body.resource_provider_generation) {
    throw conflict(GENERATION_CHANGED, { code: ErrorCodes.CONCURRENT_UPDATE });
  }
  const requested = [...new Set(body.traits)];
  const found = await listTraits(request.server.placement.db.kysely, { nameIn: requested });
  const foundNames = new Set(found.map((trait) => trait.name));
  const missing = requested.filter((name) => !foundNames.has(name));
  if (missing.length > 0) throw badRequest(`No such trait ${missing.join(', ')}`);
  const generation = await replaceTraits(
    request,
    row,
    found.map((trait) => trait.id),
  );
  setCacheHeaders(request, reply, newestTrait(found));
  return sendJson(reply, 200, {
    traits: found.map((trait) => trait.name),
    resource_provider_generation: generation,
  });
}

async function clearOfProvider(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.providerDelete);
  const row = await provider(request, false);
  await replaceTraits(request, row, []);
  return sendNoContent(reply);
}

export function registerTraitRoutes(app: FastifyInstance): void {
  declareRoute(app, '/traits', { GET: since(FEATURES.traits, list) });
  declareRoute(app, '/traits/:name', {
    GET: since(FEATURES.traits, show),
    PUT: since(FEATURES.traits, ensure),
    DELETE: since(FEATURES.traits, remove),
  });
  declareRoute(app, '/resource_providers/:uuid/traits', {
    GET: since(FEATURES.traits, listOfProvider),
    PUT: since(FEATURES.traits, updateOfProvider),
    DELETE: since(FEATURES.traits, clearOfProvider),
  });
}
