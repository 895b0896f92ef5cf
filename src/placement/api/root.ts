/** `GET /`: the version document; needs no token. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setCacheHeaders } from './cache-headers.ts';
import { sendJson } from './reply.ts';
import { declareRoute } from './routing.ts';

export function registerRoot(app: FastifyInstance): void {
  const home = async (request: FastifyRequest, reply: FastifyReply) => {
    const negotiator = request.server.microversion;
    const min = negotiator.minText;
    const max = negotiator.maxText;
    setCacheHeaders(request, reply, new Date());
    return sendJson(reply, 200, {
      versions: [
        {
          id: `v${min}`,
          max_version: max,
          min_version: min,
          status: 'CURRENT',
          links: [{ rel: 'self', href: '' }],
        },
      ],
    });
  };
  declareRoute(app, '/', { GET: home });
}
