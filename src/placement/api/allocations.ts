/**
 * /allocations/{consumer_uuid} (GET, PUT, DELETE), /allocations (POST, 1.13) and
 * /resource_providers/{uuid}/allocations (GET): HTTP glue around store/allocations.ts, with
 * the real service's schemas per microversion and its messages.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConcurrentUpdateError } from '../../db/index.ts';
import { FeatureWindows } from '../../microversion/index.ts';
import {
  type ConsumerSection,
  type LegacyPutBody,
  POST_ALLOCATIONS_V1_13,
  POST_ALLOCATIONS_V1_28,
  POST_ALLOCATIONS_V1_34,
  POST_ALLOCATIONS_V1_38,
  PUT_ALLOCATIONS_V1_0,
  PUT_ALLOCATIONS_V1_8,
  PUT_ALLOCATIONS_V1_12,
  PUT_ALLOCATIONS_V1_28,
  PUT_ALLOCATIONS_V1_34,
  PUT_ALLOCATIONS_V1_38,
} from '../schemas/allocation.ts';
import type { JsonSchema } from '../schemas/validator.ts';
import { isUuidLike } from '../schemas/validator.ts';
import {
  allocationsOfConsumer,
  allocationsOfProvider,
  ConsumerGenerationConflictError,
  type ConsumerWrite,
  deleteAllocationsOfConsumer,
  InvalidInventoryError,
  ProviderNotFoundError,
  ResourceClassNotFoundError,
  writeAllocations,
} from '../store/allocations.ts';
import { consumerTypeName, ensureConsumerType } from '../store/consumer-types.ts';
import { ensureOwner, incompleteConsumerOwner } from '../store/projects-users.ts';
import { findProvider } from '../store/provider-lookup.ts';
import { newestOf, setCacheHeaders } from './cache-headers.ts';
import { badRequest, conflict, ErrorCodes, notFound } from './errors.ts';
import { FEATURES } from './features.ts';
import { sendJson, sendNoContent } from './reply.ts';
import {
  checkAcceptsJson,
  readJsonBody,
  requireJsonContent as requireDeclaredJson,
} from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, since } from './routing.ts';

/** PUT /allocations/{consumer_uuid}'s body, as the reference binds its schemas to windows. */
export const PUT_ALLOCATIONS_SCHEMAS = new FeatureWindows<JsonSchema>(
  'PUT /allocations/{consumer_uuid} body',
  [
    { since: FEATURES.base, until: FEATURES.allocationOwners, use: PUT_ALLOCATIONS_V1_0 },
    {
      since: FEATURES.allocationOwners,
      until: FEATURES.allocationsAsDict,
      use: PUT_ALLOCATIONS_V1_8,
    },
    {
      since: FEATURES.allocationsAsDict,
      until: FEATURES.consumerGenerations,
      use: PUT_ALLOCATIONS_V1_12,
    },
    {
      since: FEATURES.consumerGenerations,
      until: FEATURES.allocationMappings,
      use: PUT_ALLOCATIONS_V1_28,
    },
    {
      since: FEATURES.allocationMappings,
      until: FEATURES.consumerTypes,
      use: PUT_ALLOCATIONS_V1_34,
    },
    { since: FEATURES.consumerTypes, use: PUT_ALLOCATIONS_V1_38 },
  ],
);

/** POST /allocations' body. */
export const POST_ALLOCATIONS_SCHEMAS = new FeatureWindows<JsonSchema>('POST /allocations body', [
  {
    since: FEATURES.postAllocations,
    until: FEATURES.consumerGenerations,
    use: POST_ALLOCATIONS_V1_13,
  },
  {
    since: FEATURES.consumerGenerations,
    until: FEATURES.allocationMappings,
    use: POST_ALLOCATIONS_V1_28,
  },
  {
    since: FEATURES.allocationMappings,
    until: FEATURES.consumerTypes,
    use: POST_ALLOCATIONS_V1_34,
  },
  { since: FEATURES.consumerTypes, use: POST_ALLOCATIONS_V1_38 },
]);

const RULES = {
  list: 'placement:allocations:list',
  update: 'placement:allocations:update',
  delete: 'placement:allocations:delete',
  manage: 'placement:allocations:manage',
  providerList: 'placement:resource_providers:allocations:list',
};

const CONCURRENT_DATA = 'Another thread concurrently updated the data. Please retry your update';
const CONCURRENT_PROVIDER =
  'Another thread concurrently updated the resource provider data. Please retry your update';

type Params = { consumer_uuid?: string; uuid?: string };

function param(request: FastifyRequest, name: keyof Params): string {
  return (request.params as Params)[name] ?? '';
}

/** The last of created_at/updated_at per allocation (allocations are only ever inserted). */
function lastModified(rows: readonly { createdAt: unknown; updatedAt: unknown }[]): Date {
  return newestOf(rows.map((r) => (r.updatedAt ?? r.createdAt) as Date | string | null));
}

async function listForConsumer(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.list);
  const { db } = request.server.placement;
  const version = request.microversion;
  const found = await allocationsOfConsumer(db.kysely, param(request, 'consumer_uuid'));
  const byProvider: Record<string, { resources: Record<string, number>; generation: number }> = {};
  const body: Record<string, unknown> = { allocations: byProvider };
  if (found !== undefined) {
    const classes = request.server.placement.resourceClasses;
    for (const row of found.allocations) {
      const entry = byProvider[row.providerUuid] ?? {
        resources: {},
        generation: row.providerGeneration,
      };
      entry.resources[await classes.nameOf(db.kysely, row.resourceClassId)] = row.used;
      entry.generation = row.providerGeneration;
      byProvider[row.providerUuid] = entry;
    }
    if (version.atLeast(FEATURES.allocationsAsDict)) {
      body.project_id = found.projectExternalId;
      body.user_id = found.userExternalId;
      if (version.atLeast(FEATURES.consumerGenerations))
        body.consumer_generation = found.generation;
      if (version.atLeast(FEATURES.consumerTypes))
        body.consumer_type = await consumerTypeName(db, found.consumerTypeId);
    }
  }
  setCacheHeaders(request, reply, lastModified(found?.allocations ?? []));
  return sendJson(reply, 200, body);
}

async function listForProvider(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.providerList);
  const { db, resourceClasses } = request.server.placement;
  const uuid = param(request, 'uuid');
  const provider = await findProvider(db.kysely, uuid);
  if (provider === undefined) {
    throw notFound(
      `Resource provider '${uuid}' not found: No resource provider with uuid ${uuid} found`,
    );
  }
  const rows = await allocationsOfProvider(db.kysely, provider.id);
  const showGeneration = request.microversion.atLeast(FEATURES.consumerGenerations);
  const byConsumer: Record<
    string,
    { resources: Record<string, number>; consumer_generation?: number }
  > = {};
  for (const row of rows) {
    const entry = byConsumer[row.consumerUuid] ?? { resources: {} };
    entry.resources[await resourceClasses.nameOf(db.kysely, row.resourceClassId)] = row.used;
    if (showGeneration) entry.consumer_generation = row.consumerGeneration;
    byConsumer[row.consumerUuid] = entry;
  }
  setCacheHeaders(request, reply, lastModified(rows));
  return sendJson(reply, 200, {
    allocations: byConsumer,
    resource_provider_generation: provider.generation,
  });
}

/** 415 before anything else, as the real `require_content` decorator answers. */
function requireJsonContent(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') requireDeclaredJson(request);
}

/** oslo's is_uuid_like accepted; stored in the canonical lower-case, dashed form. */
function canonicalUuid(value: string): string {
  const hex = value.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One consumer's section turned into a store write; owners and types created as needed. */
export async function consumerWrite(
  request: FastifyRequest,
  consumerUuid: string,
  section: ConsumerSection,
): Promise<ConsumerWrite> {
  const { db, config } = request.server.placement;
  const version = request.microversion;
  // Before 1.8 the owner is unknown: the configured incomplete-consumer ids stand in.
  const owner =
    section.project_id === undefined
      ? incompleteConsumerOwner(config)
      : { projectExternalId: section.project_id, userExternalId: section.user_id ?? '' };
  return {
    consumerUuid,
    owner: await ensureOwner(db, owner),
    consumerTypeId:
      version.atLeast(FEATURES.consumerTypes) && section.consumer_type !== undefined
        ? await ensureConsumerType(db, section.consumer_type)
        : undefined,
    expectedGeneration: version.atLeast(FEATURES.consumerGenerations)
      ? { value: section.consumer_generation ?? null }
      : undefined,
    allocations: Object.entries(section.allocations).map(([providerUuid, entry]) => ({
      providerUuid,
      resources: Object.entries(entry.resources),
    })),
  };
}

export async function classIdsOf(
  request: FastifyRequest,
  writes: readonly ConsumerWrite[],
): Promise<Map<string, number | undefined>> {
  const { db, resourceClasses } = request.server.placement;
  const ids = new Map<string, number | undefined>();
  for (const write of writes) {
    for (const { resources } of write.allocations) {
      for (const [name] of resources) {
        if (!ids.has(name)) ids.set(name, await resourceClasses.idOf(db.kysely, name));
      }
    }
  }
  return ids;
}

/** The store's refusals in the real service's words; `notFoundPrefix` differs PUT/POST. */
function translateWriteError(error: unknown, notFoundPrefix: string): unknown {
  if (error instanceof ProviderNotFoundError) {
    return badRequest(
      `Allocation for resource provider '${error.providerUuid}' that does not exist.`,
    );
  }
  if (error instanceof ConsumerGenerationConflictError) {
    return conflict(error.message, { code: ErrorCodes.CONCURRENT_UPDATE });
  }
  if (error instanceof ResourceClassNotFoundError) {
    return badRequest(`${notFoundPrefix}${error.message}`);
  }
  if (error instanceof InvalidInventoryError) {
    return conflict(`Unable to allocate inventory: ${error.message}`);
  }
  if (error instanceof ConcurrentUpdateError) {
    const detail = error.table === 'resource_providers' ? CONCURRENT_PROVIDER : CONCURRENT_DATA;
    return conflict(
      `Inventory and/or allocations changed while attempting to allocate: ${detail}`,
      {
        code: ErrorCodes.CONCURRENT_UPDATE,
      },
    );
  }
  return error;
}

async function setForConsumer(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.update);
  const rawUuid = param(request, 'consumer_uuid');
  if (!isUuidLike(rawUuid)) throw badRequest(`Malformed consumer_uuid: ${rawUuid}`);
  const consumerUuid = canonicalUuid(rawUuid);
  const body = await readJsonBody<ConsumerSection | LegacyPutBody>(
    request,
    PUT_ALLOCATIONS_SCHEMAS.expect(request.microversion.version),
  );
  let section: ConsumerSection;
  if (request.microversion.atLeast(FEATURES.allocationsAsDict)) {
    section = body as ConsumerSection;
  } else {
    const legacy = body as LegacyPutBody;
    const allocations: Record<string, { resources: Record<string, number> }> = {};
    for (const item of legacy.allocations) {
      allocations[item.resource_provider.uuid] = { resources: item.resources };
    }
    section = { ...legacy, allocations };
  }
  const write = await consumerWrite(request, consumerUuid, section);
  try {
    await writeAllocations(request.server.placement.db, [write], {
      order: 'put',
      classIds: await classIdsOf(request, [write]),
    });
  } catch (error) {
    throw translateWriteError(error, `Unable to allocate inventory for consumer ${consumerUuid}: `);
  }
  return sendNoContent(reply);
}

async function setAllocations(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.manage);
  const body = await readJsonBody<Record<string, ConsumerSection>>(
    request,
    POST_ALLOCATIONS_SCHEMAS.expect(request.microversion.version),
  );
  const writes: ConsumerWrite[] = [];
  for (const [consumerUuid, section] of Object.entries(body)) {
    writes.push(await consumerWrite(request, consumerUuid, section));
  }
  try {
    await writeAllocations(request.server.placement.db, writes, {
      order: 'post',
      classIds: await classIdsOf(request, writes),
    });
  } catch (error) {
    throw translateWriteError(error, 'Unable to allocate inventory ');
  }
  return sendNoContent(reply);
}

async function deleteForConsumer(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.delete);
  const consumerUuid = param(request, 'consumer_uuid');
  if (!(await deleteAllocationsOfConsumer(request.server.placement.db, consumerUuid))) {
    throw notFound(`No allocations for consumer '${consumerUuid}'`);
  }
  return sendNoContent(reply);
}

export function registerAllocationRoutes(app: FastifyInstance): void {
  declareRoute(app, '/allocations', { POST: since(FEATURES.postAllocations, setAllocations) });
  declareRoute(app, '/allocations/:consumer_uuid', {
    GET: listForConsumer,
    PUT: setForConsumer,
    DELETE: deleteForConsumer,
  });
  declareRoute(app, '/resource_providers/:uuid/allocations', { GET: listForProvider });
}
