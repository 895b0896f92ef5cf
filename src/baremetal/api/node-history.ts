/**
 * /v1/nodes/{node}/history as the real API serves it (NodeHistoryController, from 1.78): the
 * events the conductor recorded on the node (`node_history`), read by the API process as the
 * real one reads them.
 *
 * - The list is `{"history": [...]}`, oldest first, each event with `uuid`, `created_at`,
 *   `severity`, `event` (cut to 251 characters and `...` when longer than 255) and a `self`
 *   link; `?detail=True` adds `event_type`, `conductor` and `user` and the whole event.
 *   `limit` and `marker` (an event's UUID; an unknown one is the real NodeHistoryNotFound) page
 *   it; a full page has a `next` link repeating `marker` and the fields as the real one does.
 *   It takes no `fields`, `sort_key` or `sort_dir` (the real "Unexpected arguments").
 * - `/history/{event}` is one event, in detail. As in the real one, the event is found by its
 *   UUID whatever node it belongs to.
 * - Below 1.78 the real nodes controller aborts with WebOb's 404 before looking at the node.
 * - Policy `baremetal:node:history:get`, checked after the arguments.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NodeHistoryObject } from '../objects/index.ts';
import { type Handler, servicesOf } from './context.ts';
import { HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { buildUrl, publicUrl } from './links.ts';
import { checkLimit } from './list-params.ts';
import { nodeWithPolicy } from './node-sub-access.ts';
import { nodeIdent } from './nodes.ts';
import { objectToDict } from './object-dict.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

const RULE = 'baremetal:node:history:get';
const DETAIL_FIELDS = [
  'uuid',
  'created_at',
  'severity',
  'event_type',
  'event',
  'conductor',
  'user',
];
const STANDARD_FIELDS = ['uuid', 'created_at', 'severity', 'event'];

/** Below 1.78 the nodes controller does not route to history. */
function checkRouted(request: FastifyRequest): string {
  const ident = nodeIdent(request);
  if (!request.microversion.atLeast(FEATURES.nodeHistory)) throw new HttpAbort(404);
  args.uuidOrName('node_ident', ident);
  return ident;
}

/** _history_event_convert_with_links: no `updated_at`, one `self` link under the node's UUID. */
function eventBody(
  request: FastifyRequest,
  nodeUuid: string,
  event: NodeHistoryObject,
  detail: boolean,
): Record<string, unknown> {
  const body = objectToDict(event, detail ? DETAIL_FIELDS : STANDARD_FIELDS);
  if (!detail) {
    const text = String(body.event ?? '');
    body.event = [...text].length > 255 ? `${[...text].slice(0, 251).join('')}...` : text;
  }
  delete body.updated_at;
  body.links = [
    {
      href: buildUrl(publicUrl(request), 'nodes', `${nodeUuid}/history/${event.get('uuid')}`),
      rel: 'self',
    },
  ];
  return body;
}

const list: Handler = async (request) => {
  const ident = checkRouted(request);
  const params = bindParams(request, {
    detail: { validate: args.boolean },
    marker: { validate: args.uuid },
    limit: { validate: args.integer },
  });
  const detail = (params.detail as boolean | undefined) ?? false;
  const node = await nodeWithPolicy(request, RULE, ident);
  const { store } = servicesOf(request);
  const marker = params.marker as string | undefined;
  // The marker is looked up first: an unknown one is NodeHistoryNotFound.
  if (marker !== undefined) await store.nodeHistory.getByUuid(marker);
  const limit = checkLimit(request, params.limit as number | undefined);
  const events = await store.nodeHistory.list(node.get('id'), {
    limit,
    ...(marker === undefined ? {} : { marker }),
  });
  const nodeUuid = String(node.get('uuid'));
  const body: Record<string, unknown> = {
    history: events.map((event) => eventBody(request, nodeUuid, event, detail)),
  };
  if (events.length > 0 && events.length === limit) {
    // collection.get_next: the handler's `marker` argument (the marker object; Baton repeats
    // its UUID, the real one Python's str() of the object), then the fields shown.
    const fields = (detail ? DETAIL_FIELDS : STANDARD_FIELDS).join(',');
    const last = events[events.length - 1]?.get('uuid');
    body.next = buildUrl(
      publicUrl(request),
      `nodes/${ident}/history`,
      `?marker=${marker ?? 'None'}&fields=${fields}&limit=${limit}&marker=${last}`,
    );
  }
  return body;
};

const show: Handler = async (request) => {
  const ident = checkRouted(request);
  const { event } = request.params as { event: string };
  bindParams(request, {});
  args.uuidOrName('event', event);
  const node = await nodeWithPolicy(request, RULE, ident);
  const found = await servicesOf(request).store.nodeHistory.getByUuid(event);
  return eventBody(request, String(node.get('uuid')), found, true);
};

export function registerNodeHistoryRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/history', { GET: list });
  declareRoute(app, '/v1/nodes/:node/history/:event', { GET: show });
}
