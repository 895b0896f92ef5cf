/**
 * GET /v1/shards (API 1.82, ShardController): every shard value with its node count, the most
 * populated first. As the real one, nodes without a shard are counted too, under the name
 * "None" (its `str(None)`), and the list is not paged. Below 1.82 the real controller answers
 * WebOb's 404 to GET and 405 to other methods.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Handler, servicesOf } from './context.ts';
import { HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

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

/** get_one is explicitly refused with 404 (once the version allows the controller). */
const one: Handler = async (request) => {
  shardsRouted(request);
  throw new HttpAbort(404);
};

export function registerShardRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/shards', { GET: list });
  declareRoute(app, '/v1/shards/:shard', { GET: one });
}
