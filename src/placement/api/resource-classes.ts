/**
 * /resource_classes (from 1.2): list, create, show, delete; PUT renames a custom class up to
 * 1.6 and creates one idempotently from 1.7.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FeatureWindows } from '../../microversion/index.ts';
import { RESOURCE_CLASS_BODY } from '../schemas/resource-class.ts';
import { schemaProblem } from '../schemas/validator.ts';
import {
  createResourceClass,
  deleteResourceClass,
  findResourceClass,
  isStandardClassId,
  listResourceClasses,
  type ResourceClassRow,
  renameResourceClass,
} from '../store/resource-classes.ts';
import { newestOf, setCacheHeaders } from './cache-headers.ts';
import { badRequest, conflict, notFound } from './errors.ts';
import { FEATURES } from './features.ts';
import { absoluteLocation } from './location.ts';
import { sendJson, sendNoContent } from './reply.ts';
import { checkAcceptsJson, readJsonBody, requireJsonContent } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, since, windowed } from './routing.ts';

const RULES = {
  list: 'placement:resource_classes:list',
  create: 'placement:resource_classes:create',
  show: 'placement:resource_classes:show',
  update: 'placement:resource_classes:update',
  delete: 'placement:resource_classes:delete',
} as const;

const pathOf = (name: string) => `/resource_classes/${name}`;

function representation(name: string) {
  return { name, links: [{ rel: 'self', href: pathOf(name) }] };
}

function nameParam(request: FastifyRequest): string {
  return (request.params as { name: string }).name;
}

async function existingClass(request: FastifyRequest, name: string): Promise<ResourceClassRow> {
  const row = await findResourceClass(request.server.placement.db.kysely, name);
  // The real lookup raises past the handler: no `Vary`.
  if (row === undefined)
    throw notFound(`No such resource class ${name}.`, { escapesHandler: true });
  return row;
}

async function list(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.list);
  const rows = await listResourceClasses(request.server.placement.db.kysely);
  setCacheHeaders(request, reply, newestOf(rows.map((row) => row.updated_at ?? row.created_at)));
  return sendJson(reply, 200, { resource_classes: rows.map((row) => representation(row.name)) });
}

async function create(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.create);
  const { name } = await readJsonBody<{ name: string }>(request, RESOURCE_CLASS_BODY);
  const services = request.server.placement;
  const result = await createResourceClass(services.db, name);
  if (result.outcome === 'exists') {
    throw conflict(`Conflicting resource class already exists: ${name}`);
  }
  if (result.outcome === 'retries-exhausted') {
    throw conflict(
      `Max retries of DB transaction exceeded attempting to create resource class: ${name}, please try again.`,
    );
  }
  services.resourceClasses.invalidate();
  reply.header('location', absoluteLocation(request, pathOf(name)));
  return reply.code(201).removeHeader('content-type').send();
}

async function show(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, RULES.show);
  const row = await existingClass(request, nameParam(request));
  setCacheHeaders(request, reply, newestOf([row.updated_at ?? row.created_at]));
  return sendJson(reply, 200, representation(row.name));
}

/** 1.2–1.6: renames a custom class. */
async function rename(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  authorize(request, RULES.update);
  const { name: newName } = await readJsonBody<{ name: string }>(request, RESOURCE_CLASS_BODY);
  const name = nameParam(request);
  const row = await existingClass(request, name);
  if (isStandardClassId(row.id)) {
    throw badRequest(`Cannot update standard resource class ${name}`);
  }
  const services = request.server.placement;
  if (!(await renameResourceClass(services.db.kysely, row.id, newName))) {
    throw conflict(`Resource class already exists: ${newName}`);
  }
  services.resourceClasses.invalidate();
  return sendJson(reply, 200, representation(newName));
}

/** 1.7+: makes sure the named custom class exists (201 created, 204 was there). */
async function ensure(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.update);
  const name = nameParam(request);
  // The real service checks the path's name with the POST body's schema, and words it so.
  const problem = schemaProblem(RESOURCE_CLASS_BODY, { name });
  if (problem !== undefined) throw badRequest(`JSON does not validate: ${problem}`);
  const services = request.server.placement;
  let status = 204;
  if ((await findResourceClass(services.db.kysely, name)) === undefined) {
    const result = await createResourceClass(services.db, name);
    if (result.outcome === 'retries-exhausted') {
      throw conflict(
        `Max retries of DB transaction exceeded attempting to create resource class: ${name}, please try again.`,
      );
    }
    // 'exists': another client created it just now, which is still a 204.
    if (result.outcome === 'created') {
      status = 201;
      services.resourceClasses.invalidate();
    }
  }
  reply.header('location', absoluteLocation(request, pathOf(name)));
  return reply.code(status).removeHeader('content-type').send();
}

/** PUT renames a custom class until it creates one instead. */
export const PUT_RESOURCE_CLASS = new FeatureWindows('PUT /resource_classes/{name}', [
  { since: FEATURES.resourceClasses, until: FEATURES.putCreatesResourceClass, use: rename },
  { since: FEATURES.putCreatesResourceClass, use: ensure },
]);

async function remove(request: FastifyRequest, reply: FastifyReply) {
  authorize(request, RULES.delete);
  const name = nameParam(request);
  const row = await existingClass(request, name);
  if (isStandardClassId(row.id)) {
    throw badRequest(
      `Error in delete resource class: Cannot delete standard resource class ${name}.`,
    );
  }
  const services = request.server.placement;
  const outcome = await deleteResourceClass(services.db, row.id);
  if (outcome === 'in-use') {
    throw conflict(
      `Error in delete resource class: Cannot delete resource class ${name}. Class is in use in inventory.`,
    );
  }
  if (outcome === 'missing') throw notFound(`No such resource class ${name}.`);
  services.resourceClasses.invalidate();
  return sendNoContent(reply);
}

export function registerResourceClassRoutes(app: FastifyInstance): void {
  declareRoute(app, '/resource_classes', {
    GET: since(FEATURES.resourceClasses, list),
    POST: since(FEATURES.resourceClasses, create),
  });
  declareRoute(app, '/resource_classes/:name', {
    GET: since(FEATURES.resourceClasses, show),
    PUT: windowed(PUT_RESOURCE_CLASS),
    DELETE: since(FEATURES.resourceClasses, remove),
  });
}
