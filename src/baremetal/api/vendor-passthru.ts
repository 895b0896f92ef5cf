/**
 * Vendor passthru as the real API serves it (NodeVendorPassthruController and
 * DriverPassthruController, api_utils.vendor_passthru): the methods of a node's vendor
 * interface, or of a hardware type's default one, listed at `…/vendor_passthru/methods` and
 * called with any HTTP method at `…/vendor_passthru?method=<name>` or `…/vendor_passthru/<name>`
 * (what the real client sends), the JSON body handed to
 * the method as its arguments. The call is the conductor's (RPC 1.4): an asynchronous method is
 * 202 with no body, a synchronous one 200 with its return value as JSON.
 *
 * Differences: the real API keeps each hardware type's method list for the life of the process
 * (the first node asked for decides it for every node of that type); Baton asks the conductor
 * each time. A body that is not a JSON object is 400 here, where the real conductor fails on
 * it with a 500.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidParameterError } from '../common/errors.ts';
import type { PassthruAnswer } from '../rpcapi/conductor-api.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError } from './errors.ts';
import { requireNodeActions } from './node-actions-rpc.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams, isDict, requestParams } from './params.ts';
import { declareRoute } from './routing.ts';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The method named and the body as its arguments (`method.body('data')`), checked. The method
 * is the path's last segment (`…/vendor_passthru/<method>`, what the real client sends, pecan's
 * positional argument) or the `method` query parameter.
 */
function passthruCall(request: FastifyRequest): { method: string; data: Record<string, unknown> } {
  const inPath = (request.params as { method?: string }).method;
  const params = bindParams(
    request,
    { method: { validate: args.string, required: true }, data: {} },
    {
      bodyArg: 'data',
      ...(inPath === undefined ? {} : { params: { ...requestParams(request), method: inPath } }),
    },
  );
  return { method: (params.method as string | undefined) ?? '', data: params.data as never };
}

/** vendor_passthru's checks before the call, in the real order. */
function checked(method: string, data: unknown): Record<string, unknown> {
  if (!method) throw new ClientSideError('Method not specified');
  const info = data ?? {};
  if (!isDict(info)) {
    throw new InvalidParameterError('The vendor method takes a JSON object as its arguments.');
  }
  return info;
}

/** 202 without a body for an asynchronous method, else 200 with the return value as JSON. */
function answered(reply: FastifyReply, answer: PassthruAnswer): undefined {
  const value = answer.return ?? null;
  if (answer.async && value === null) {
    reply.code(202);
    return undefined;
  }
  reply
    .code(answer.async ? 202 : 200)
    .type('application/json')
    .send(JSON.stringify(value));
  return undefined;
}

const nodeMethods: Handler = async (request) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  requireNodeActions(request);
  return conductors.getNodeVendorPassthruMethods(node);
};

const nodeCall: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const { method, data } = passthruCall(request);
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  const info = checked(method, data);
  requireNodeActions(request);
  const answer = await conductors.vendorPassthru(node, method, request.method, info);
  return answered(reply, answer);
};

function driverName(request: FastifyRequest): string {
  return (request.params as { driver_name: string }).driver_name;
}

const driverMethods: Handler = async (request) => {
  const name = driverName(request);
  bindParams(request, {});
  const { conductors } = servicesOf(request);
  await conductors.rings.conductorForDriver(name);
  requireNodeActions(request);
  return conductors.getDriverVendorPassthruMethods(name);
};

const driverCall: Handler = async (request, reply) => {
  const name = driverName(request);
  const { method, data } = passthruCall(request);
  const { conductors } = servicesOf(request);
  await conductors.rings.conductorForDriver(name);
  const info = checked(method, data);
  requireNodeActions(request);
  const answer = await conductors.driverVendorPassthru(name, method, request.method, info);
  return answered(reply, answer);
};

const everyMethod = (handler: Handler) =>
  Object.fromEntries(HTTP_METHODS.map((method) => [method, handler]));

export function registerVendorPassthruRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/vendor_passthru/methods', { GET: nodeMethods });
  declareRoute(app, '/v1/nodes/:node/vendor_passthru', everyMethod(nodeCall));
  declareRoute(app, '/v1/nodes/:node/vendor_passthru/:method', everyMethod(nodeCall));
  declareRoute(app, '/v1/drivers/:driver_name/vendor_passthru/methods', { GET: driverMethods });
  declareRoute(app, '/v1/drivers/:driver_name/vendor_passthru', everyMethod(driverCall));
  declareRoute(app, '/v1/drivers/:driver_name/vendor_passthru/:method', everyMethod(driverCall));
}
