/**
 * Routes of /resource_providers: list (with filters), create, show, update (rename, and from
 * 1.14 parent; re-parenting from 1.37), delete.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FeatureWindows } from '../../microversion/index.ts';
import {
  LIST_PROVIDERS_QUERY_1_0,
  LIST_PROVIDERS_QUERY_1_3,
  LIST_PROVIDERS_QUERY_1_4,
  LIST_PROVIDERS_QUERY_1_14,
  LIST_PROVIDERS_QUERY_1_18,
  POST_PROVIDER_SCHEMA,
  POST_PROVIDER_SCHEMA_1_14,
  PUT_PROVIDER_SCHEMA,
  PUT_PROVIDER_SCHEMA_1_14,
} from '../schemas/resource-provider.ts';
import type { JsonSchema } from '../schemas/validator.ts';
import {
  listProviders,
  type ProviderFilters,
  UnknownResourceClassError,
  UnknownTraitError,
} from '../store/provider-filters.ts';
import {
  createProvider,
  DuplicateProviderError,
  deleteProvider,
  getProviderDetail,
  ProviderActionError,
  ProviderHasChildrenError,
  ProviderInUseError,
  ProviderNotFoundError,
  updateProvider,
} from '../store/resource-providers.ts';
import { newestOf, setCacheHeaders } from './cache-headers.ts';
import { badRequest, conflict, ErrorCodes, notFound } from './errors.ts';
import { FEATURES } from './features.ts';
import { parseMemberOf, parseRequiredTraits, parseResources } from './filter-params.ts';
import { absoluteLocation } from './location.ts';
import { providerBody, providerModified, providerUrl } from './provider-view.ts';
import { queryValue, queryValues, validateQuery } from './query.ts';
import { sendJson, sendNoContent } from './reply.ts';
import { checkAcceptsJson, readJsonBody, requireJsonContent } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute } from './routing.ts';

/** GET /resource_providers' query string, one schema per microversion that added a filter. */
export const LIST_QUERY_SCHEMAS = new FeatureWindows<JsonSchema>('GET /resource_providers query', [
  { since: FEATURES.base, until: FEATURES.providerMemberOf, use: LIST_PROVIDERS_QUERY_1_0 },
  {
    since: FEATURES.providerMemberOf,
    until: FEATURES.providerResourcesFilter,
    use: LIST_PROVIDERS_QUERY_1_3,
  },
  {
    since: FEATURES.providerResourcesFilter,
    until: FEATURES.nestedProviders,
    use: LIST_PROVIDERS_QUERY_1_4,
  },
  {
    since: FEATURES.nestedProviders,
    until: FEATURES.providerRequiredTraits,
    use: LIST_PROVIDERS_QUERY_1_14,
  },
  { since: FEATURES.providerRequiredTraits, use: LIST_PROVIDERS_QUERY_1_18 },
]);

/** POST /resource_providers' body: a parent may be named from 1.14. */
export const CREATE_SCHEMAS = new FeatureWindows<JsonSchema>('POST /resource_providers body', [
  { since: FEATURES.base, until: FEATURES.nestedProviders, use: POST_PROVIDER_SCHEMA },
  { since: FEATURES.nestedProviders, use: POST_PROVIDER_SCHEMA_1_14 },
]);

/** PUT /resource_providers/{uuid}'s body: a parent may be named from 1.14. */
export const UPDATE_SCHEMAS = new FeatureWindows<JsonSchema>(
  'PUT /resource_providers/{uuid} body',
  [
    { since: FEATURES.base, until: FEATURES.nestedProviders, use: PUT_PROVIDER_SCHEMA },
    { since: FEATURES.nestedProviders, use: PUT_PROVIDER_SCHEMA_1_14 },
  ],
);

function listFilters(request: FastifyRequest): ProviderFilters {
  const filters: {
    -readonly [K in keyof ProviderFilters]: ProviderFilters[K];
  } = {};
  if (queryValues(request, 'member_of').length > 0) {
    const aggregates = parseMemberOf(request);
    filters.memberOf = aggregates.memberOf;
    filters.forbiddenAggregates = aggregates.forbidden;
  }
  if (queryValues(request, 'required').length > 0) {
    const traits = parseRequiredTraits(request);
    filters.requiredTraits = traits.required;
    filters.forbiddenTraits = traits.forbidden;
  }
  filters.uuid = queryValue(request, 'uuid');
  filters.name = queryValue(request, 'name');
  filters.inTree = queryValue(request, 'in_tree');
  const resources = queryValue(request, 'resources');
  if (resources !== undefined) filters.resources = parseResources(resources);
  return filters;
}

async function listResourceProviders(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, 'placement:resource_providers:list');
  validateQuery(request, LIST_QUERY_SCHEMAS.expect(request.microversion.version));
  const filters = listFilters(request);
  const { db, resourceClasses } = request.server.placement;
  let providers: Awaited<ReturnType<typeof listProviders>>;
  try {
    providers = await listProviders(db.kysely, resourceClasses, filters);
  } catch (error) {
    if (error instanceof UnknownResourceClassError) {
      throw badRequest(`Invalid resource class in resources parameter: ${error.message}`);
    }
    if (error instanceof UnknownTraitError) {
      throw badRequest(`Invalid trait(s) in "required" parameter: ${error.message}`);
    }
    throw error;
  }
  setCacheHeaders(request, reply, newestOf(providers.map(providerModified)));
  return sendJson(reply, 200, {
    resource_providers: providers.map((provider) => providerBody(request, provider)),
  });
}

/**
 * A uuid in its canonical form (lower case, dashed 8-4-4-4-12), read as Python's uuid.UUID
 * reads it: `urn:` and `uuid:` dropped, braces stripped from the ends, dashes dropped.
 */
function canonicalUuid(text: string): string {
  const hex = text
    .replaceAll('urn:', '')
    .replaceAll('uuid:', '')
    .replace(/^[{}]+|[{}]+$/g, '')
    .replaceAll('-', '')
    .toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

interface ProviderBody {
  name: string;
  uuid?: string;
  parent_provider_uuid?: string | null;
}

async function createResourceProvider(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, 'placement:resource_providers:create');
  const version = request.microversion;
  const data = await readJsonBody<ProviderBody>(request, CREATE_SCHEMAS.expect(version.version));
  const uuid = data.uuid ? canonicalUuid(data.uuid) : randomUUID();
  let provider: Awaited<ReturnType<typeof createProvider>>;
  try {
    provider = await createProvider(request.server.placement.db, {
      uuid,
      name: data.name,
      parentUuid: data.parent_provider_uuid ?? null,
    });
  } catch (error) {
    if (error instanceof DuplicateProviderError) {
      throw conflict(
        `Conflicting resource provider ${error.conflicts.join(', ')} already exists.`,
        {
          code: ErrorCodes.DUPLICATE_NAME,
        },
      );
    }
    if (error instanceof ProviderActionError) {
      throw badRequest(
        `Unable to create resource provider "${data.name}", ${uuid}: ${error.message}`,
      );
    }
    throw error;
  }
  reply.header('location', absoluteLocation(request, providerUrl(uuid)));
  if (version.atLeast(FEATURES.createProviderReturnsBody)) {
    // A provider made just now: last-modified is now.
    setCacheHeaders(request, reply, new Date());
    return sendJson(reply, 200, providerBody(request, provider));
  }
  return reply.code(201).removeHeader('content-type').send();
}

/** The real service's lookup raises its NotFound past the handler (no `Vary`). */
function providerNotFound(uuid: string) {
  return notFound(`No resource provider with uuid ${uuid} found`, { escapesHandler: true });
}

function uuidParam(request: FastifyRequest): string {
  return (request.params as { uuid: string }).uuid;
}

async function showResourceProvider(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  const uuid = uuidParam(request);
  authorize(request, 'placement:resource_providers:show');
  const provider = await getProviderDetail(request.server.placement.db.kysely, uuid);
  if (provider === undefined) throw providerNotFound(uuid);
  setCacheHeaders(request, reply, newestOf([providerModified(provider)]));
  return sendJson(reply, 200, providerBody(request, provider));
}

async function updateResourceProvider(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  const uuid = uuidParam(request);
  authorize(request, 'placement:resource_providers:update');
  const { db } = request.server.placement;
  const before = await getProviderDetail(db.kysely, uuid);
  if (before === undefined) throw providerNotFound(uuid);
  const version = request.microversion;
  const data = await readJsonBody<ProviderBody>(request, UPDATE_SCHEMAS.expect(version.version));
  let provider: Awaited<ReturnType<typeof updateProvider>>;
  try {
    provider = await updateProvider(
      db,
      uuid,
      { name: data.name, parentUuid: data.parent_provider_uuid },
      version.atLeast(FEATURES.reparentProviders),
    );
  } catch (error) {
    if (error instanceof DuplicateProviderError) {
      throw conflict(`Conflicting resource provider ${data.name} already exists.`, {
        code: ErrorCodes.DUPLICATE_NAME,
      });
    }
    if (error instanceof ProviderActionError) {
      throw badRequest(`Unable to save resource provider ${uuid}: ${error.message}`);
    }
    if (error instanceof ProviderNotFoundError) throw notFound(error.message);
    throw error;
  }
  if (version.atLeast(FEATURES.cacheHeaders)) {
    // The real service reports the updated_at it read before saving: none for a provider
    // never updated, in which case no last-modified is sent.
    if (before.updatedAt !== null)
      reply.header('last-modified', newestOf([before.updatedAt]).toUTCString());
    reply.header('cache-control', 'no-cache');
  }
  return sendJson(reply, 200, providerBody(request, provider));
}

async function deleteResourceProvider(request: FastifyRequest, reply: FastifyReply) {
  const uuid = uuidParam(request);
  authorize(request, 'placement:resource_providers:delete');
  try {
    await deleteProvider(request.server.placement.db, uuid);
  } catch (error) {
    if (error instanceof ProviderNotFoundError) {
      throw notFound(`No resource provider with uuid ${uuid} found for delete`);
    }
    if (error instanceof ProviderInUseError) {
      throw conflict(`Unable to delete resource provider ${uuid}: ${error.message}`, {
        code: ErrorCodes.PROVIDER_IN_USE,
      });
    }
    if (error instanceof ProviderHasChildrenError) {
      throw conflict(
        `Unable to delete parent resource provider ${uuid}: It has child resource providers.`,
        { code: ErrorCodes.PROVIDER_CANNOT_DELETE_PARENT },
      );
    }
    throw error;
  }
  return sendNoContent(reply);
}

export function registerResourceProviderRoutes(app: FastifyInstance): void {
  declareRoute(app, '/resource_providers', {
    GET: listResourceProviders,
    POST: createResourceProvider,
  });
  // Declared in the real service's order, which is the order `Allow` lists them in.
  declareRoute(app, '/resource_providers/:uuid', {
    GET: showResourceProvider,
    DELETE: deleteResourceProvider,
    PUT: updateResourceProvider,
  });
}
