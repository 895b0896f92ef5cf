/**
 * A provider's inventories: the whole set (`/resource_providers/{uuid}/inventories`) and one
 * class at a time (`.../inventories/{resource_class}`). Messages, codes and the order of the
 * checks follow the real service's handlers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConcurrentUpdateError } from '../../db/index.ts';
import {
  CREATE_INVENTORY_SCHEMA,
  type CreateInventoryBody,
  INVENTORY_RECORD_SCHEMA,
  type InventoryInput,
  MAX_INT,
  RC_PATTERN,
  REPLACE_INVENTORIES_SCHEMA,
  type ReplaceInventoriesBody,
  UPDATE_INVENTORY_SCHEMA,
  type UpdateInventoryBody,
} from '../schemas/inventory.ts';
import { schemaProblem } from '../schemas/validator.ts';
import {
  addInventory,
  deleteInventory,
  findInventory,
  InventoryExistsError,
  type InventoryFields,
  InventoryInUseError,
  InventoryNotFoundError,
  type InventoryRecord,
  inventoriesOfProvider,
  inventoryFields,
  replaceInventories,
  updateInventory,
} from '../store/inventories.ts';
import { findProvider, type ProviderRow } from '../store/provider-lookup.ts';
import { newestOf, setCacheHeaders } from './cache-headers.ts';
import { badRequest, conflict, ErrorCodes, notFound, PlacementHttpError } from './errors.ts';
import { FEATURES } from './features.ts';
import { absoluteLocation } from './location.ts';
import { pythonJsonNumbers } from './python-json.ts';
import { PythonNumber, pythonFloat } from './python-number.ts';
import { sendNoContent, sendPythonJson } from './reply.ts';
import {
  bodyTextRead,
  checkAcceptsJson,
  readJsonBody,
  requireJsonContent,
} from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute } from './routing.ts';

const RULES = {
  list: 'placement:resource_providers:inventories:list',
  create: 'placement:resource_providers:inventories:create',
  show: 'placement:resource_providers:inventories:show',
  update: 'placement:resource_providers:inventories:update',
  delete: 'placement:resource_providers:inventories:delete',
} as const;

/** The real service's words when a provider's generation moved during a write. */
const PROVIDER_CONCURRENT_UPDATE =
  'Another thread concurrently updated the resource provider data. Please retry your update';

const rcPattern = new RegExp(RC_PATTERN);

interface ProviderParams {
  uuid: string;
}
interface InventoryParams extends ProviderParams {
  resource_class: string;
}

/** The record's settings with the real service's defaults filled in. */
export function withDefaults(input: InventoryInput): InventoryFields {
  return {
    total: input.total,
    reserved: input.reserved ?? 0,
    min_unit: input.min_unit ?? 1,
    max_unit: input.max_unit ?? MAX_INT,
    step_size: input.step_size ?? 1,
    allocation_ratio: input.allocation_ratio ?? 1.0,
  };
}

/**
 * Why the record's capacity is refused, or undefined. Below 1.26 the capacity
 * `int((total - reserved) * allocation_ratio)` must be positive; from 1.26 it may be zero.
 */
function capacityProblem(
  request: FastifyRequest,
  providerUuid: string,
  resourceClass: string,
  fields: InventoryFields,
): string | undefined {
  const capacity = Math.trunc((fields.total - fields.reserved) * fields.allocation_ratio);
  const prefix = `Invalid inventory for '${resourceClass}' on resource provider '${providerUuid}'.`;
  if (request.microversion.atLeast(FEATURES.reservedMayEqualTotal)) {
    return capacity < 0 ? `${prefix} The reserved value is greater than total.` : undefined;
  }
  return capacity <= 0
    ? `${prefix} The reserved value is greater than or equal to total.`
    : undefined;
}

const inUseMessage = (names: readonly string[], providerUuid: string) =>
  `Inventory for '${names.join(', ')}' on resource provider '${providerUuid}' in use.`;

const noSuchClass = (name: string) => `No such resource class ${name}.`;

type InventoryJson = Record<string, number | PythonNumber>;

/** A record as stored: allocation_ratio comes from a float column, so it shows as a float. */
function storedInventory(fields: InventoryFields): InventoryJson {
  return { ...inventoryFields(fields), allocation_ratio: pythonFloat(fields.allocation_ratio) };
}

/**
 * A record as sent, which the real service echoes: each number as the request wrote it (`4`
 * stays an int, `4.0` a float, whatever the field), the defaults as Python's (ratio 1.0).
 * `sent` is the record in the body, read by pythonJsonNumbers.
 */
function sentInventory(fields: InventoryFields, sent: unknown): InventoryJson {
  const body = storedInventory(fields);
  if (sent === null || typeof sent !== 'object') return body;
  for (const name of Object.keys(body)) {
    const value = (sent as Record<string, unknown>)[name];
    if (value instanceof PythonNumber) body[name] = value;
  }
  return body;
}

/** The request's body with its numbers as the real service reads them. */
function sentNumbers(request: FastifyRequest): unknown {
  return pythonJsonNumbers(bodyTextRead(request));
}

/** One inventory; the generation is left out when 0, as the real service does. */
function serializeInventory(record: InventoryJson, generation: number): InventoryJson {
  const body = { ...record };
  if (generation) body.resource_provider_generation = generation;
  return body;
}

/**
 * Cache headers from 1.15. `lastModified` undefined (no inventory at all) sends only
 * `cache-control`, as the real service has no time to show then.
 */
function cacheHeaders(request: FastifyRequest, reply: FastifyReply, lastModified?: Date): void {
  if (lastModified !== undefined) {
    setCacheHeaders(request, reply, lastModified);
  } else if (request.microversion.atLeast(FEATURES.cacheHeaders)) {
    reply.header('cache-control', 'no-cache');
  }
}

const modifiedAt = (record: InventoryRecord) => record.updated_at ?? record.created_at;

/** The provider, or 404 worded as the handler (`detail`) or the object layer words it. */
async function providerOr404(
  request: FastifyRequest,
  uuid: string,
  handlerWording = false,
): Promise<ProviderRow> {
  const provider = await findProvider(request.server.placement.db.kysely, uuid);
  if (provider === undefined) throw providerNotFound(uuid, handlerWording);
  return provider;
}

/** Worded by the handler, or the lookup's own error raised past it (no `Vary` then). */
function providerNotFound(uuid: string, handlerWording: boolean) {
  const base = `No resource provider with uuid ${uuid} found`;
  if (handlerWording) return notFound(`${base} : ${base}`);
  return notFound(base, { escapesHandler: true });
}

async function classNames(request: FastifyRequest, ids: readonly number[]): Promise<string[]> {
  const { db, resourceClasses } = request.server.placement;
  return Promise.all(ids.map((id) => resourceClasses.nameOf(db.kysely, id)));
}

async function sendInventories(
  request: FastifyRequest,
  reply: FastifyReply,
  generation: number,
  records: readonly { name: string; json: InventoryJson }[],
  lastModified: Date | undefined,
) {
  const inventories: Record<string, InventoryJson> = {};
  for (const { name, json } of records) inventories[name] = json;
  cacheHeaders(request, reply, lastModified);
  return sendPythonJson(reply, 200, { resource_provider_generation: generation, inventories });
}

async function listProviderInventories(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.list);
  const { uuid } = request.params as ProviderParams;
  const found = await inventoriesOfProvider(request.server.placement.db.kysely, uuid);
  if (found === undefined) throw providerNotFound(uuid, true);
  const { generation, records } = found;
  const names = await classNames(
    request,
    records.map((record) => record.resource_class_id),
  );
  const lastModified = records.length === 0 ? undefined : newestOf(records.map(modifiedAt));
  return sendInventories(
    request,
    reply,
    generation,
    records.map((fields, index) => ({
      name: names[index] as string,
      json: storedInventory(fields),
    })),
    lastModified,
  );
}

async function createProviderInventory(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.create);
  const { uuid } = request.params as ProviderParams;
  const provider = await providerOr404(request, uuid);
  const body = await readJsonBody<CreateInventoryBody>(request, CREATE_INVENTORY_SCHEMA);
  const className = body.resource_class;
  const fields = withDefaults(body);
  const unable = (message: string) =>
    badRequest(`Unable to create inventory for resource provider ${provider.uuid}: ${message}`);
  const problem = capacityProblem(request, provider.uuid, className, fields);
  if (problem !== undefined) throw unable(problem);
  const { db, resourceClasses } = request.server.placement;
  const classId = await resourceClasses.idOf(db.kysely, className);
  if (classId === undefined) throw unable(noSuchClass(className));
  let generation: number;
  try {
    generation = await addInventory(db, provider, classId, fields);
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) {
      throw conflict(`Update conflict: ${PROVIDER_CONCURRENT_UPDATE}`, {
        code: ErrorCodes.CONCURRENT_UPDATE,
      });
    }
    if (error instanceof InventoryExistsError) {
      throw conflict(
        `Update conflict: Duplicate entry for inventory of ${className} on resource provider ${provider.uuid}`,
        { code: ErrorCodes.CONCURRENT_UPDATE },
      );
    }
    throw error;
  }
  reply.header(
    'location',
    absoluteLocation(request, `/resource_providers/${provider.uuid}/inventories/${className}`),
  );
  setCacheHeaders(request, reply, new Date());
  return sendPythonJson(
    reply,
    201,
    serializeInventory(sentInventory(fields, sentNumbers(request)), generation),
  );
}

/** The class ids of a PUT body, in body order; 400 for the first unknown class. */
async function resolveClasses(
  request: FastifyRequest,
  providerUuid: string,
  names: readonly string[],
): Promise<number[]> {
  const { db, resourceClasses } = request.server.placement;
  const ids: number[] = [];
  for (const name of names) {
    const id = await resourceClasses.idOf(db.kysely, name);
    if (id === undefined) {
      throw badRequest(
        `Unknown resource class in inventory for resource provider ${providerUuid}: ${noSuchClass(name)}`,
      );
    }
    ids.push(id);
  }
  return ids;
}

async function replaceProviderInventories(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.update);
  const { uuid } = request.params as ProviderParams;
  const provider = await providerOr404(request, uuid);
  const body = await readJsonBody<ReplaceInventoriesBody>(request, REPLACE_INVENTORIES_SCHEMA);
  // The schema checks records only under class-like keys; a record under any other key is
  // checked here too (the real service would fail on it with a 500; its class is unknown).
  for (const [name, record] of Object.entries(body.inventories)) {
    if (rcPattern.test(name)) continue;
    const problem = schemaProblem(INVENTORY_RECORD_SCHEMA, record);
    if (problem !== undefined) throw badRequest(`JSON does not validate: ${problem}`);
  }
  if (body.resource_provider_generation !== provider.generation) {
    throw conflict('resource provider generation conflict', {
      code: ErrorCodes.CONCURRENT_UPDATE,
    });
  }
  const entries = Object.entries(body.inventories).map(([name, input]) => ({
    name,
    fields: withDefaults(input),
  }));
  for (const { name, fields } of entries) {
    const problem = capacityProblem(request, provider.uuid, name, fields);
    if (problem !== undefined) {
      throw badRequest(
        `Unable to update inventory for resource provider ${provider.uuid}: ${problem}`,
      );
    }
  }
  const ids = await resolveClasses(
    request,
    provider.uuid,
    entries.map((entry) => entry.name),
  );
  const records = new Map(
    ids.map((id, index) => [id, (entries[index] as (typeof entries)[0]).fields]),
  );
  let generation: number;
  try {
    generation = await replaceInventories(request.server.placement.db, provider, records);
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) {
      throw conflict(`update conflict: ${PROVIDER_CONCURRENT_UPDATE}`, {
        code: ErrorCodes.CONCURRENT_UPDATE,
      });
    }
    if (error instanceof InventoryInUseError) {
      const names = await classNames(request, error.resourceClassIds);
      throw conflict(`update conflict: ${inUseMessage(names, provider.uuid)}`, {
        code: ErrorCodes.INVENTORY_INUSE,
      });
    }
    throw error;
  }
  const sent = (sentNumbers(request) as { inventories?: Record<string, unknown> } | undefined)
    ?.inventories;
  const echoed = entries.map(({ name, fields }) => ({
    name,
    json: sentInventory(fields, sent?.[name]),
  }));
  return sendInventories(request, reply, generation, echoed, new Date());
}

async function deleteProviderInventories(request: FastifyRequest, reply: FastifyReply) {
  if (!request.microversion.atLeast(FEATURES.deleteAllInventories)) {
    // The real service answers 405 (not 404) below 1.5, with no Allow header.
    throw new PlacementHttpError(405, '');
  }
  authorize(request, RULES.delete);
  const { uuid } = request.params as ProviderParams;
  const provider = await providerOr404(request, uuid);
  try {
    await replaceInventories(request.server.placement.db, provider, new Map());
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) {
      throw conflict(
        `Unable to delete inventory for resource provider ${provider.uuid} because the inventory was updated by another process. Please retry your request.`,
        { code: ErrorCodes.CONCURRENT_UPDATE },
      );
    }
    if (error instanceof InventoryInUseError) {
      const names = await classNames(request, error.resourceClassIds);
      throw conflict(inUseMessage(names, provider.uuid), { code: ErrorCodes.INVENTORY_INUSE });
    }
    throw error;
  }
  return sendNoContent(reply);
}

async function showProviderInventory(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.show);
  const { uuid, resource_class: className } = request.params as InventoryParams;
  const provider = await providerOr404(request, uuid, true);
  const { db, resourceClasses } = request.server.placement;
  const classId = await resourceClasses.idOf(db.kysely, className);
  const record =
    classId === undefined ? undefined : await findInventory(db.kysely, provider.id, classId);
  if (record === undefined) throw notFound(`No inventory of class ${className} for ${uuid}`);
  setCacheHeaders(request, reply, newestOf([modifiedAt(record)]));
  return sendPythonJson(
    reply,
    200,
    serializeInventory(storedInventory(record), provider.generation),
  );
}

async function updateProviderInventory(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.update);
  const { uuid, resource_class: className } = request.params as InventoryParams;
  const provider = await providerOr404(request, uuid);
  const body = await readJsonBody<UpdateInventoryBody>(request, UPDATE_INVENTORY_SCHEMA);
  if (body.resource_provider_generation !== provider.generation) {
    throw conflict('resource provider generation conflict', {
      code: ErrorCodes.CONCURRENT_UPDATE,
    });
  }
  const fields = withDefaults(body);
  const problem = capacityProblem(request, provider.uuid, className, fields);
  if (problem !== undefined) {
    throw badRequest(
      `Unable to update inventory for resource provider ${provider.uuid}: ${problem}`,
    );
  }
  const { db, resourceClasses } = request.server.placement;
  const classId = await resourceClasses.idOf(db.kysely, className);
  // An unknown class escapes the handler in the real service and is answered 404.
  if (classId === undefined) throw notFound(noSuchClass(className));
  let generation: number;
  try {
    generation = await updateInventory(db, provider, classId, fields);
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) {
      throw conflict(`update conflict: ${PROVIDER_CONCURRENT_UPDATE}`, {
        code: ErrorCodes.CONCURRENT_UPDATE,
      });
    }
    if (error instanceof InventoryNotFoundError) {
      throw badRequest(
        `No inventory record with resource class for resource provider ${provider.uuid}: No inventory of class ${className} found.`,
      );
    }
    throw error;
  }
  setCacheHeaders(request, reply, new Date());
  return sendPythonJson(
    reply,
    200,
    serializeInventory(sentInventory(fields, sentNumbers(request)), generation),
  );
}

async function deleteProviderInventory(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.delete);
  const { uuid, resource_class: className } = request.params as InventoryParams;
  const provider = await providerOr404(request, uuid);
  const { db, resourceClasses } = request.server.placement;
  const missing = (reason: string) =>
    notFound(`No inventory of class ${className} found for delete: ${reason}`);
  const classId = await resourceClasses.idOf(db.kysely, className);
  if (classId === undefined) throw missing(noSuchClass(className));
  try {
    await deleteInventory(db, provider, classId);
  } catch (error) {
    // Both conflicts carry the concurrent-update code here, as in the real handler.
    const unable = (reason: string) =>
      conflict(`Unable to delete inventory of class ${className}: ${reason}`, {
        code: ErrorCodes.CONCURRENT_UPDATE,
      });
    if (error instanceof ConcurrentUpdateError) throw unable(PROVIDER_CONCURRENT_UPDATE);
    if (error instanceof InventoryInUseError) {
      throw unable(inUseMessage([className], provider.uuid));
    }
    if (error instanceof InventoryNotFoundError) {
      throw missing(`No inventory of class ${className} found for delete`);
    }
    throw error;
  }
  return sendNoContent(reply);
}

export function registerInventoryRoutes(app: FastifyInstance): void {
  declareRoute(app, '/resource_providers/:uuid/inventories', {
    GET: listProviderInventories,
    POST: createProviderInventory,
    PUT: replaceProviderInventories,
    DELETE: deleteProviderInventories,
  });
  declareRoute(app, '/resource_providers/:uuid/inventories/:resource_class', {
    GET: showProviderInventory,
    PUT: updateProviderInventory,
    DELETE: deleteProviderInventory,
  });
}
