/**
 * /v1/deploy_templates (API 1.55) as the real API serves it (DeployTemplatesController): list
 * (default fields `uuid`, `name`; `fields`, `detail`), show by UUID or name, create, PATCH of
 * `name`, `steps`, `extra` (and `description`, which no field keeps) and delete, all written by
 * the API process itself. Below 1.55 the real controller answers WebOb's 404 to GET and 405 to
 * the rest. As the real one, the `fields` and `sort_key` given are checked against the node's
 * versioned fields (check_allowed_fields).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import { InvalidError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { DeployTemplate, type DeployTemplateObject } from '../objects/index.ts';
import { listBody } from './collection.ts';
import { type Handler, servicesOf } from './context.ts';
import {
  DEPLOY_STEP_VALIDATOR,
  sanitizeTemplate,
  TEMPLATE_SCHEMA,
  TEMPLATE_VALIDATOR,
  templateBody,
  templateDict,
} from './deploy-template-schema.ts';
import { ClientSideError, HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { allowedPatchFields, applyJsonPatch, type PatchOperation } from './json-patch.ts';
import { buildUrl, publicUrl } from './links.ts';
import { checkLimit, checkSortDir, checkSortKey, returnFields } from './list-params.ts';
import { checkNodeFieldsAllowed } from './node-fields.ts';
import { asDict, updateChangedFields } from './object-dict.ts';
import { args, bindParams, isValidLogicalName, pyStr, type Validator } from './params.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { PATCH_ARG } from './schema-args.ts';
import { pathOf } from './wsgi-path.ts';

const DEFAULT_RETURN_FIELDS = ['uuid', 'name'];
const INVALID_SORT_KEYS = ['extra', 'steps'];
const PATCH_ALLOWED_FIELDS = ['extra', 'name', 'steps', 'description'];

/** args.name. */
const logicalName: Validator = (name, value) => {
  if (value === null || value === undefined) return undefined;
  if (!isValidLogicalName(value)) {
    throw new InvalidParameterError(`Expected name for ${name}: ${pyStr(value)}`, name);
  }
  return value;
};

function templatesRouted(request: FastifyRequest): void {
  if (request.microversion.atLeast(FEATURES.deployTemplates)) return;
  throw new HttpAbort(
    request.method === 'GET' ? 404 : 405,
    'The API version does not allow deploy templates',
  );
}

const identOf = (request: FastifyRequest) => (request.params as { template: string }).template;

async function getRpcTemplate(request: FastifyRequest, ident: string) {
  const { store } = servicesOf(request);
  if (isUuidLike(ident)) return store.deployTemplates.getByUuid(ident);
  if (isValidLogicalName(ident)) return store.deployTemplates.getByName(ident);
  throw new InvalidError(`Expected a logical name or UUID but received ${ident}.`);
}

/** get_rpc_deploy_template_with_suffix. */
async function findTemplate(request: FastifyRequest, ident: string): Promise<DeployTemplateObject> {
  try {
    return await getRpcTemplate(request, ident);
  } catch (error) {
    if (error instanceof NotFoundError && pathOf(request.raw).jsonSuffix) {
      return getRpcTemplate(request, `${ident}.json`);
    }
    throw error;
  }
}

const list: Handler = async (request) => {
  templatesRouted(request);
  const params = bindParams(request, {
    marker: { validate: logicalName },
    limit: { validate: args.integer },
    sort_key: { validate: args.string },
    sort_dir: { validate: args.string },
    fields: { validate: args.stringList },
    detail: { validate: args.boolean },
  });
  const sortKey = (params.sort_key as string | undefined) ?? 'id';
  checkNodeFieldsAllowed(request, params.fields as string[] | undefined);
  checkNodeFieldsAllowed(request, [sortKey]);
  const detail = params.detail as boolean | undefined;
  const fields = returnFields(
    request,
    params.fields as string[] | undefined,
    detail,
    DEFAULT_RETURN_FIELDS,
  );
  const limit = checkLimit(request, params.limit as number | undefined);
  const sortDir = checkSortDir((params.sort_dir as string | undefined) ?? 'asc');
  checkSortKey(sortKey, INVALID_SORT_KEYS);
  const { store } = servicesOf(request);
  const marker = params.marker as string | undefined;
  if (marker !== undefined) await store.deployTemplates.getByUuid(marker);
  const templates = await store.deployTemplates.list({
    limit,
    ...(marker === undefined ? {} : { marker }),
    sortKey,
    sortDir,
  });
  const items = templates.map((template) => templateDict(request, template, fields));
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (detail !== undefined) parameters.push(['detail', detail]);
  const body = listBody(
    'deploy_templates',
    items,
    templates.map((template) => String(template.get('uuid'))),
    { limit, url: 'deploy_templates', base: publicUrl(request), parameters, fields },
  );
  for (const item of items) sanitizeTemplate(item, fields);
  return body;
};

const show: Handler = async (request) => {
  templatesRouted(request);
  const ident = identOf(request);
  const params = bindParams(request, { fields: { validate: args.stringList } });
  args.uuidOrName('template_ident', ident);
  const fields = params.fields as string[] | undefined;
  checkNodeFieldsAllowed(request, fields);
  return templateBody(request, await findTemplate(request, ident), fields);
};

const create: Handler = async (request, reply) => {
  templatesRouted(request);
  const params = bindParams(
    request,
    { template: { validate: TEMPLATE_VALIDATOR } },
    { bodyArg: 'template' },
  );
  const values = params.template as Record<string, unknown>;
  // `description` passes the schema, but no field keeps it: dropped, as the real one does.
  const template = DeployTemplate.create({});
  for (const field of ['uuid', 'name', 'steps', 'extra'] as const) {
    if (Object.hasOwn(values, field)) template.assign(field, values[field]);
  }
  if (!values.uuid) template.set('uuid', randomUUID());
  const created = await servicesOf(request).store.deployTemplates.create(template);
  const uuid = String(created.get('uuid'));
  reply.code(201).header('location', buildUrl(publicUrl(request), 'deploy_templates', uuid));
  return templateBody(request, created);
};

const update: Handler = async (request) => {
  templatesRouted(request);
  const ident = identOf(request);
  const params = bindParams(
    request,
    { patch: { validate: PATCH_ARG, required: true } },
    { bodyArg: 'patch' },
  );
  args.uuidOrName('template_ident', ident);
  const patch = params.patch as PatchOperation[];
  allowedPatchFields(patch, PATCH_ALLOWED_FIELDS);
  const template = await findTemplate(request, ident);
  const patched = applyJsonPatch(asDict(template), patch);
  for (const step of (patched.steps as unknown[] | undefined) ?? []) {
    DEPLOY_STEP_VALIDATOR('patch', step);
  }
  const schemaFields = Object.keys(TEMPLATE_SCHEMA.properties as object);
  for (const field of Object.keys(patched)) {
    if (!schemaFields.includes(field)) delete patched[field];
  }
  TEMPLATE_VALIDATOR('patch', patched);
  const values: Record<string, unknown> = {};
  for (const field of ['extra', 'name', 'steps', 'uuid']) values[field] = patched[field] ?? null;
  updateChangedFields(template, values);
  const saved = await servicesOf(request).store.deployTemplates.save(template);
  return templateBody(request, saved);
};

const destroy: Handler = async (request, reply) => {
  templatesRouted(request);
  const ident = identOf(request);
  bindParams(request, {});
  args.uuidOrName('template_ident', ident);
  const template = await findTemplate(request, ident);
  await servicesOf(request).store.deployTemplates.destroy(Number(template.get('id')));
  reply.code(204);
  return undefined;
};

/** POST /v1/deploy_templates/{x}: pecan binds the segment to the body argument. */
const createUnder: Handler = async (request) => {
  templatesRouted(request);
  TEMPLATE_VALIDATOR('template', identOf(request));
  throw new ClientSideError('Resource could not be found.', 404);
};

const missingIdent: Handler = async (request) => {
  templatesRouted(request);
  throw new InvalidParameterError('Missing mandatory parameter: template_ident');
};

export function registerDeployTemplateRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/deploy_templates',
    { GET: list, POST: create, PATCH: missingIdent, DELETE: missingIdent },
    COLLECTION_METHODS,
  );
  declareRoute(
    app,
    '/v1/deploy_templates/:template',
    { GET: show, PATCH: update, DELETE: destroy, POST: createUnder },
    COLLECTION_METHODS,
  );
}
