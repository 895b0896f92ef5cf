/**
 * /v1/nodes/{node}/states/console as the real API serves it (NodeConsoleController), at every
 * version: GET asks the node's conductor how to reach the console (a console that is off is
 * `{"console_enabled": false, "console_info": null}`); PUT `{"enabled": bool}` has the conductor
 * start or stop it in the background: 202, with the console's Location.
 */
import type { FastifyInstance } from 'fastify';
import { NodeConsoleNotEnabledError } from '../common/errors.ts';
import { type Handler, servicesOf } from './context.ts';
import { buildUrl, publicUrl } from './links.ts';
import { requireNodeActions } from './node-actions-rpc.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

const getConsole: Handler = async (request) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  requireNodeActions(request);
  try {
    const info = await conductors.getConsoleInformation(node);
    return { console_enabled: true, console_info: info };
  } catch (error) {
    if (error instanceof NodeConsoleNotEnabledError) {
      return { console_enabled: false, console_info: null };
    }
    throw error;
  }
};

const setConsole: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, { enabled: { validate: args.boolean, required: true } });
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  requireNodeActions(request);
  // An explicit null reaches the real conductor as None, which stops the console (see docs).
  await conductors.setConsoleMode(node, (params.enabled as boolean | undefined) ?? false);
  reply.header('location', buildUrl(publicUrl(request), 'nodes', `${ident}/states/console`));
  reply.code(202);
  return undefined;
};

export function registerNodeConsoleRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/states/console', { GET: getConsole, PUT: setConsole });
}
