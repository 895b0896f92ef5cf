/**
 * POST /reshaper (1.30; consumer types 1.38): replace the inventories of some providers and
 * the allocations of their consumers at once — the providers' generations checked first, the
 * rest in one transaction, refused in the reference's words.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConcurrentUpdateError } from '../../db/index.ts';
import { FeatureWindows } from '../../microversion/index.ts';
import {
  RESHAPER_SCHEMA,
  RESHAPER_SCHEMA_1_34,
  RESHAPER_SCHEMA_1_38,
  type ReshaperBody,
} from '../schemas/reshaper.ts';
import type { JsonSchema } from '../schemas/validator.ts';
import {
  ConsumerGenerationConflictError,
  InvalidInventoryError,
  ProviderNotFoundError,
  ResourceClassNotFoundError,
} from '../store/allocations.ts';
import type { InventoryFields } from '../store/inventories.ts';
import { findProvider } from '../store/provider-lookup.ts';
import { type ProviderReshape, ReshapeInventoryInUseError, reshape } from '../store/reshaper.ts';
import { classIdsOf, consumerWrite } from './allocations.ts';
import { badRequest, conflict, ErrorCodes } from './errors.ts';
import { FEATURES } from './features.ts';
import { withDefaults } from './inventories.ts';
import { sendNoContent } from './reply.ts';
import { readJsonBody, requireJsonContent } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, since } from './routing.ts';

/** POST /reshaper's body: its allocations follow POST /allocations' changes. */
export const RESHAPER_SCHEMAS = new FeatureWindows<JsonSchema>('POST /reshaper body', [
  { since: FEATURES.reshaper, until: FEATURES.allocationMappings, use: RESHAPER_SCHEMA },
  { since: FEATURES.allocationMappings, until: FEATURES.consumerTypes, use: RESHAPER_SCHEMA_1_34 },
  { since: FEATURES.consumerTypes, use: RESHAPER_SCHEMA_1_38 },
]);

const CONCURRENT_DATA = 'Another thread concurrently updated the data. Please retry your update';
const CONCURRENT_PROVIDER =
  'Another thread concurrently updated the resource provider data. Please retry your update';

const malformed = (message: string) => badRequest(`malformed reshaper data: ${message}`);

async function reshapeProviders(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, 'placement:reshaper:reshape');
  const schema = RESHAPER_SCHEMAS.expect(request.microversion.version);
  const body = await readJsonBody<ReshaperBody>(request, schema);
  const { db, resourceClasses } = request.server.placement;

  const reshapes: ProviderReshape[] = [];
  const uuidOf = new Map<number, string>();
  const unknownClasses: string[] = [];
  for (const [uuid, data] of Object.entries(body.inventories)) {
    const provider = await findProvider(db.kysely, uuid);
    if (provider === undefined) {
      throw badRequest(
        `Resource provider ${uuid} in inventories not found: No resource provider with uuid ${uuid} found`,
        { code: ErrorCodes.RESOURCE_PROVIDER_NOT_FOUND },
      );
    }
    // An early generation check, before anything is written.
    if (data.resource_provider_generation !== provider.generation) {
      throw conflict(
        `resource provider generation conflict for provider ${uuid}: actual: ` +
          `${provider.generation}, given: ${data.resource_provider_generation}`,
        { code: ErrorCodes.CONCURRENT_UPDATE },
      );
    }
    uuidOf.set(provider.id, provider.uuid);
    const records = new Map<number, InventoryFields>();
    for (const [name, input] of Object.entries(data.inventories)) {
      const classId = await resourceClasses.idOf(db.kysely, name);
      if (classId === undefined) unknownClasses.push(name);
      else records.set(classId, withDefaults(input));
    }
    reshapes.push({ provider: { id: provider.id, generation: provider.generation }, records });
  }

  const writes = [];
  for (const [consumerUuid, section] of Object.entries(body.allocations)) {
    writes.push(await consumerWrite(request, consumerUuid, section));
  }
  // The reference meets an unknown inventory class only once it writes; nothing is kept.
  if (unknownClasses.length > 0) throw malformed(`No such resource class ${unknownClasses[0]}.`);

  try {
    await reshape(db, reshapes, writes, {
      order: 'post',
      classIds: await classIdsOf(request, writes),
    });
  } catch (error) {
    throw await translate(request, error, uuidOf);
  }
  return sendNoContent(reply);
}

async function translate(
  request: FastifyRequest,
  error: unknown,
  uuidOf: ReadonlyMap<number, string>,
): Promise<unknown> {
  const { db, resourceClasses } = request.server.placement;
  if (error instanceof ProviderNotFoundError) {
    return badRequest(
      `Allocation for resource provider '${error.providerUuid}' that does not exist.`,
    );
  }
  if (error instanceof ConsumerGenerationConflictError) {
    return conflict(error.message, { code: ErrorCodes.CONCURRENT_UPDATE });
  }
  if (error instanceof ResourceClassNotFoundError) return malformed(error.message);
  if (error instanceof InvalidInventoryError) {
    return conflict(`Unable to allocate inventory: ${error.message}`);
  }
  if (error instanceof ReshapeInventoryInUseError) {
    const names: string[] = [];
    for (const id of error.resourceClassIds) {
      names.push(await resourceClasses.nameOf(db.kysely, id));
    }
    return conflict(
      `update conflict: Inventory for '${names.join(', ')}' on resource provider ` +
        `'${uuidOf.get(error.providerId)}' in use.`,
      { code: ErrorCodes.INVENTORY_INUSE },
    );
  }
  if (error instanceof ConcurrentUpdateError) {
    const detail = error.table === 'resource_providers' ? CONCURRENT_PROVIDER : CONCURRENT_DATA;
    return conflict(`update conflict: ${detail}`, { code: ErrorCodes.CONCURRENT_UPDATE });
  }
  return error;
}

export function registerReshaperRoutes(app: FastifyInstance): void {
  declareRoute(app, '/reshaper', { POST: since(FEATURES.reshaper, reshapeProviders) });
}
