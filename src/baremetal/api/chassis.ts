/**
 * /v1/chassis as the real API serves it (controllers/v1/chassis.py): list (default fields
 * `uuid`, `description`; `fields`, `detail`), `/detail`, show, create, PATCH and delete. The
 * API process writes chassis itself, through the store at the caps in force. The
 * `/chassis/{uuid}/nodes` lists are the node lists' (nodes.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuidLike, type JsonSchema } from '../../python-compat/index.ts';
import { InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { Chassis, type ChassisObject } from '../objects/index.ts';
import { listBody } from './collection.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError } from './errors.ts';
import { allowedPatchFields, applyJsonPatch, type PatchOperation } from './json-patch.ts';
import { buildUrl, publicUrl, selfLinks } from './links.ts';
import {
  checkFieldsAllowed,
  checkLimit,
  checkSortDir,
  checkSortKey,
  returnFields,
} from './list-params.ts';
import { listNodes, listNodesDetail } from './node-list.ts';
import { invalidFields, keepFields, objectToDict, updateChangedFields } from './object-dict.ts';
import { args, bindParams } from './params.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { dictValid, PATCH_ARG, schemaArg } from './schema-args.ts';
import { pathOf } from './wsgi-path.ts';

export const CHASSIS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    uuid: { type: ['string', 'null'] },
    extra: { type: ['object', 'null'] },
    description: { type: ['string', 'null'], maxLength: 255 },
  },
  additionalProperties: false,
};

const CHASSIS_VALIDATOR = args.and(
  schemaArg(CHASSIS_SCHEMA, { noneIsValid: false }),
  dictValid({ uuid: args.uuid }),
);
const DEFAULT_RETURN_FIELDS = ['uuid', 'description'];
const INVALID_SORT_KEYS = ['extra'];

/** convert_with_links (the `nodes` links come wrapped in a list, as the real body has them). */
export function chassisBody(
  request: FastifyRequest,
  chassis: ChassisObject,
  fields?: readonly string[],
): Record<string, unknown> {
  const base = publicUrl(request);
  const uuid = String(chassis.get('uuid'));
  const body = objectToDict(chassis, ['description', 'extra']);
  body.links = selfLinks(base, 'chassis', uuid);
  body.nodes = [selfLinks(base, 'chassis', `${uuid}/nodes`)];
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return body;
}

/** Chassis.get_by_uuid: anything but a UUID is not found. */
export async function chassisByUuid(
  request: FastifyRequest,
  ident: string,
): Promise<ChassisObject> {
  if (!isUuidLike(ident)) throw new NotFoundError('chassis', ident);
  return servicesOf(request).store.chassis.get(ident);
}

const PAGE_SPECS = {
  marker: { validate: args.uuid },
  limit: { validate: args.integer },
  sort_key: { validate: args.string },
  sort_dir: { validate: args.string },
};

async function chassisCollection(
  request: FastifyRequest,
  page: Record<string, unknown>,
  url: string,
  fields: readonly string[] | undefined,
  detail: boolean | undefined,
) {
  const limit = checkLimit(request, page.limit as number | undefined);
  const sortDir = checkSortDir((page.sort_dir as string | undefined) ?? 'asc');
  const sortKey = (page.sort_key as string | undefined) ?? 'id';
  const { store } = servicesOf(request);
  const marker = page.marker as string | undefined;
  if (marker !== undefined) await store.chassis.get(marker);
  checkSortKey(sortKey, INVALID_SORT_KEYS);
  const list = await store.chassis.list({ limit, marker, sortKey, sortDir });
  const items = list.map((chassis) => keepFields(chassisBody(request, chassis, fields), fields));
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (detail !== undefined) parameters.push(['detail', detail]);
  return listBody(
    'chassis',
    items,
    list.map((chassis) => String(chassis.get('uuid'))),
    { limit, url, base: publicUrl(request), parameters, fields },
  );
}

const list: Handler = async (request) => {
  const params = bindParams(request, {
    ...PAGE_SPECS,
    fields: { validate: args.stringList },
    detail: { validate: args.boolean },
  });
  checkFieldsAllowed(request, params.fields);
  const fields = returnFields(
    request,
    params.fields as string[] | undefined,
    params.detail as boolean | undefined,
    DEFAULT_RETURN_FIELDS,
  );
  return chassisCollection(
    request,
    params,
    'chassis',
    fields,
    params.detail as boolean | undefined,
  );
};

const detail: Handler = async (request) => {
  const params = bindParams(request, PAGE_SPECS);
  const parent = pathOf(request.raw).seen.split('/').slice(0, -1).at(-1);
  if (parent !== 'chassis') throw new ClientSideError('Resource could not be found.', 404);
  return chassisCollection(request, params, 'chassis/detail', undefined, undefined);
};

const show: Handler = async (request) => {
  const { chassis_uuid: ident } = request.params as { chassis_uuid: string };
  const params = bindParams(request, { fields: { validate: args.stringList } });
  args.uuid('chassis_uuid', ident);
  checkFieldsAllowed(request, params.fields);
  const fields = params.fields as string[] | undefined;
  const chassis = await chassisByUuid(request, ident);
  return keepFields(chassisBody(request, chassis, fields), fields);
};

const create: Handler = async (request, reply) => {
  const params = bindParams(
    request,
    { chassis: { validate: CHASSIS_VALIDATOR } },
    {
      bodyArg: 'chassis',
    },
  );
  const values = { ...(params.chassis as Record<string, unknown>) };
  const chassis = Chassis.create({});
  for (const [field, value] of Object.entries(values)) {
    if (field !== 'uuid' || value) chassis.assign(field, value);
  }
  const created = await servicesOf(request).store.chassis.create(chassis);
  const uuid = String(created.get('uuid'));
  reply.code(201).header('location', buildUrl(publicUrl(request), 'chassis', uuid));
  return chassisBody(request, created);
};

const update: Handler = async (request) => {
  const { chassis_uuid: ident } = request.params as { chassis_uuid: string };
  const params = bindParams(
    request,
    { patch: { validate: PATCH_ARG, required: true } },
    { bodyArg: 'patch' },
  );
  const patch = params.patch as PatchOperation[];
  allowedPatchFields(patch, Object.keys(CHASSIS_SCHEMA.properties as object));
  const { store } = servicesOf(request);
  const chassis = await chassisByUuid(request, ident);
  const current: Record<string, unknown> = {
    uuid: chassis.get('uuid'),
    extra: chassis.get('extra'),
    description: chassis.get('description'),
  };
  const patched = applyJsonPatch(current, patch);
  CHASSIS_VALIDATOR('patch', patched);
  updateChangedFields(chassis, {
    uuid: patched.uuid ?? null,
    extra: patched.extra ?? null,
    description: patched.description ?? null,
  });
  return chassisBody(request, await store.chassis.save(chassis));
};

const destroy: Handler = async (request, reply) => {
  const { chassis_uuid: ident } = request.params as { chassis_uuid: string };
  args.uuid('chassis_uuid', ident);
  bindParams(request, {});
  const chassis = await chassisByUuid(request, ident);
  await servicesOf(request).store.chassis.destroy(String(chassis.get('uuid')));
  reply.code(204);
  return undefined;
};

/** POST /v1/chassis/{x}: pecan binds the path segment to the body argument. */
const createUnder: Handler = async (request) => {
  const { chassis_uuid: segment } = request.params as { chassis_uuid: string };
  CHASSIS_VALIDATOR('chassis', segment);
  throw new ClientSideError('Resource could not be found.', 404);
};

const missingUuid: Handler = async () => {
  throw new InvalidParameterError('Missing mandatory parameter: chassis_uuid');
};

export function registerChassisRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/chassis',
    { GET: list, POST: create, PATCH: missingUuid, DELETE: missingUuid },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/chassis/detail', { GET: detail }, COLLECTION_METHODS);
  declareRoute(
    app,
    '/v1/chassis/:chassis_uuid',
    { GET: show, PATCH: update, DELETE: destroy, POST: createUnder },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/chassis/:chassis_uuid/nodes', {
    GET: async (request) => listNodes(request, chassisSegment(request)),
  });
  declareRoute(app, '/v1/chassis/:chassis_uuid/nodes/detail', {
    GET: async (request) => listNodesDetail(request, chassisSegment(request)),
  });
}

function chassisSegment(request: FastifyRequest): string {
  return (request.params as { chassis_uuid: string }).chassis_uuid;
}
