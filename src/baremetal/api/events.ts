/**
 * POST /v1/events (1.54) as Ironic 21.4.4 serves it (api/controllers/v1/event.py): the body is
 * validated first (EVENTS_SCHEMA, then each event by its own validator: the network events'
 * schema, their UUIDs and MAC address), then the version (below 1.54 the real NotFound), then
 * the policy `baremetal:events:post`. An accepted event is only logged (debug), as the real
 * controller does; the answer is 204.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonSchema } from '../../python-compat/index.ts';
import { accessOf } from './access.ts';
import type { Handler } from './context.ts';
import { ClientSideError, HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { args, bindParams, type Validator } from './params.ts';
import { macAddressArg } from './port-args.ts';
import { declareRoute } from './routing.ts';
import { dictValid, schemaArg } from './schema-args.ts';

/** NETWORK_EVENT_VALIDATOR's schema. */
const NETWORK_EVENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    event: { type: 'string' },
    port_id: { type: 'string' },
    mac_address: { type: 'string' },
    status: { type: 'string' },
    device_id: { type: ['string', 'null'] },
    'binding:host_id': { type: ['string', 'null'] },
    'binding:vnic_type': { type: ['string', 'null'] },
  },
  required: ['event', 'port_id', 'mac_address', 'status'],
  additionalProperties: false,
};

const NETWORK_EVENT_VALIDATOR: Validator = args.and(
  schemaArg(NETWORK_EVENT_SCHEMA),
  dictValid({
    port_id: args.uuid,
    mac_address: macAddressArg,
    device_id: args.uuid,
    'binding:host_id': args.uuid,
  }),
);

/** EVENT_VALIDATORS, in the real order (the schema's enum lists them so). */
export const EVENT_VALIDATORS: Readonly<Record<string, Validator>> = {
  'network.bind_port': NETWORK_EVENT_VALIDATOR,
  'network.unbind_port': NETWORK_EVENT_VALIDATOR,
  'network.delete_port': NETWORK_EVENT_VALIDATOR,
};

export const EVENTS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    events: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          event: { type: 'string', enum: Object.keys(EVENT_VALIDATORS) },
        },
        required: ['event'],
        additionalProperties: true,
      },
    },
  },
  required: ['events'],
  additionalProperties: false,
};

/** events_valid: each event by its own validator (the schema has checked the names). */
const eventsValid: Validator = (name, value) => {
  if (value === null || value === undefined) return value;
  for (const event of (value as { events: Record<string, unknown>[] }).events) {
    const validator = EVENT_VALIDATORS[event.event as string] as Validator;
    validator(name, event);
  }
  return value;
};

/**
 * args.and_valid(args.schema(EVENTS_SCHEMA), events_valid). A body of `null` passes the real
 * one and fails in the handler (a 500); here the schema refuses it, as Baton's other bodies.
 */
const EVENTS_VALIDATOR: Validator = args.and(
  schemaArg(EVENTS_SCHEMA, { noneIsValid: false }),
  eventsValid,
);

function notFoundBelowEvents(request: FastifyRequest): void {
  if (!request.microversion.atLeast(FEATURES.events)) {
    throw new ClientSideError('Resource could not be found.', 404);
  }
}

const post: Handler = async (request, reply) => {
  const params = bindParams(request, { evts: { validate: EVENTS_VALIDATOR } }, { bodyArg: 'evts' });
  notFoundBelowEvents(request);
  accessOf(request)?.authorize('baremetal:events:post');
  for (const event of (params.evts as { events: unknown[] }).events) {
    request.log.debug({ event }, 'Received external event');
  }
  reply.code(204);
  return undefined;
};

/**
 * A path below /v1/events: pecan gives its first segment to post() as `evts`, which the
 * schema then refuses as a string (whatever the body and version).
 */
const postBelow: Handler = async (request) => {
  const segment = (request.params as { '*': string })['*'].split('/')[0] as string;
  // The body's keys are method.body's, not parameters; the query's are.
  const query = request.query as Record<string, unknown>;
  bindParams(
    request,
    { evts: { validate: EVENTS_VALIDATOR } },
    { params: { ...query, evts: segment } },
  );
  throw new Error('unreachable: a string is never a valid events body');
};

/**
 * Another method: the controller's `_lookup` answers WebOb's 404 below 1.54 (the router's 405
 * from then on). Below /v1/events, always the 405.
 */
const otherMethod: Handler = async (request) => {
  if (!request.microversion.atLeast(FEATURES.events)) throw new HttpAbort(404);
  throw new HttpAbort(405, '', { allow: 'POST' });
};

export function registerEventRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/events',
    { POST: post, GET: otherMethod, PUT: otherMethod, DELETE: otherMethod, PATCH: otherMethod },
    ['POST'],
  );
  declareRoute(app, '/v1/events/*', { POST: postBelow });
}
