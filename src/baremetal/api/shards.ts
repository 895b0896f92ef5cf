/**
 * GET /v1/shards (API 1.82, ShardController): every shard value with its node count, the most
 * populated first. As the real one, nodes without a shard are counted too, under the name
 * "None" (its `str(None)`), and the list is not paged. Below 1.82 the real controller answers
 * WebOb's 404 to GET and 405 to other methods.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { bindParams } from './params.ts';
import { sendResult } from './routing.ts';

function shardsRouted(request: FastifyRequest): void {
  if (request.microversion.atLeast(FEATURES.nodeShard)) return;
  throw new HttpAbort(
    request.method === 'GET' ? 404 : 405,
    'The API version does not allow shards',
  );
}

const list: Handler = async (request) => {
  shardsRouted(request);
  bindParams(request, {});
  const counts = await servicesOf(request).store.nodes.countByShard();
  return { shards: counts.map(({ shard, count }) => ({ name: shard ?? 'None', count })) };
};

/** get_one is explicitly refused (pecan.abort(404) in a method: a fault, version headers kept). */
const one: Handler = async (request) => {
  shardsRouted(request);
  throw new ClientSideError('The resource could not be found.', 404);
};

/** Other methods: the version check first (405 with the message below 1.82), then 405. */
const notAllowed: Handler = async (request) => {
  shardsRouted(request);
  throw new HttpAbort(405, '', { allow: 'GET' });
};

export function registerShardRoutes(app: FastifyInstance): void {
  for (const url of ['/v1/shards', '/v1/shards/:shard']) {
    app.route({
      method: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'],
      url,
      handler: async (request, reply) =>
        sendResult(
          reply,
          await (request.method === 'GET' ? (url === '/v1/shards' ? list : one) : notAllowed)(
            request,
            reply,
          ),
        ),
    });
  }
}
