/**
 * /v1/conductors as the real API serves it (controllers/v1/conductor.py, from 1.49): every
 * registered conductor, online or not, `alive` when its heartbeat is within `[conductor]
 * heartbeat_timeout`; default fields `hostname`, `conductor_group`, `alive`; pages keyed by
 * hostname.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidParameterError } from '../common/errors.ts';
import type { ConductorObject } from '../objects/index.ts';
import { listBody } from './collection.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError } from './errors.ts';
import { FEATURES } from './features.ts';
import { publicUrl, selfLinks } from './links.ts';
import {
  checkFieldsAllowed,
  checkLimit,
  checkSortDir,
  checkSortKey,
  returnFields,
} from './list-params.ts';
import { checkNodeFieldsAllowed } from './node-fields.ts';
import { invalidFields, keepFields, objectToDict } from './object-dict.ts';
import { args, bindParams, isValidLogicalName, pyStr, type Validator } from './params.ts';
import { declareRoute } from './routing.ts';

const DEFAULT_RETURN_FIELDS = ['hostname', 'conductor_group', 'alive'];
const INVALID_SORT_KEYS = ['alive', 'drivers'];

/** args.name: a logical name. */
const logicalName: Validator = (name, value) => {
  if (value === null || value === undefined) return undefined;
  if (!isValidLogicalName(value)) {
    throw new InvalidParameterError(`Expected name for ${name}: ${pyStr(value)}`, name);
  }
  return value;
};

function conductorBody(
  request: FastifyRequest,
  conductor: ConductorObject,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  const hostname = conductor.get('hostname');
  const body = objectToDict(conductor, ['hostname', 'conductor_group', 'drivers'], { uuid: false });
  body.links = selfLinks(publicUrl(request), 'conductors', hostname);
  const { settings } = servicesOf(request);
  const seen = conductor.get('updated_at') ?? conductor.get('created_at');
  const last = seen === null ? 0 : new Date(seen.isoformat()).getTime();
  body.alive = last + settings.heartbeatTimeout * 1000 >= Date.now();
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return body;
}

function exposed(request: FastifyRequest): void {
  if (!request.microversion.atLeast(FEATURES.conductors)) {
    throw new ClientSideError('Resource could not be found.', 404);
  }
}

const list: Handler = async (request) => {
  const params = bindParams(request, {
    marker: { validate: logicalName },
    limit: { validate: args.integer },
    sort_key: { validate: args.string },
    sort_dir: { validate: args.string },
    fields: { validate: args.stringList },
    detail: { validate: args.boolean },
  });
  exposed(request);
  const sortKey = (params.sort_key as string | undefined) ?? 'id';
  checkFieldsAllowed(request, params.fields);
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
  if (marker !== undefined) await store.conductors.get(marker, null);
  const conductors = await store.conductors.list({ limit, marker, sortKey, sortDir });
  const parameters: [string, unknown][] = [
    ['sort_key', sortKey],
    ['sort_dir', sortDir],
  ];
  if (detail !== undefined) parameters.push(['detail', detail]);
  return listBody(
    'conductors',
    conductors.map((conductor) => keepFields(conductorBody(request, conductor, fields), fields)),
    conductors.map((conductor) => conductor.get('hostname')),
    { limit, url: 'conductors', base: publicUrl(request), parameters, fields },
  );
};

const show: Handler = async (request) => {
  const { hostname } = request.params as { hostname: string };
  const params = bindParams(request, { fields: { validate: args.stringList } });
  logicalName('hostname', hostname);
  exposed(request);
  const fields = params.fields as string[] | undefined;
  checkFieldsAllowed(request, fields);
  checkNodeFieldsAllowed(request, fields);
  const conductor = await servicesOf(request).store.conductors.get(hostname, null);
  return keepFields(conductorBody(request, conductor, fields), fields);
};

export function registerConductorRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/conductors', { GET: list });
  declareRoute(app, '/v1/conductors/:hostname', { GET: show });
}
