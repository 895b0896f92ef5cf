/**
 * /v1/nodes/{node}/management/boot_device (+ /supported) and /v1/nodes/{node}/maintenance, as
 * the real API serves them: the boot device is the conductor's (RPC), maintenance is a node
 * update sent to the conductor (update_node; a driver no conductor runs is 400 there, as the
 * real API converts it). Both answer without a body.
 */
import type { FastifyInstance } from 'fastify';
import { InvalidParameterError, NoValidHostError } from '../common/errors.ts';
import { type Handler, servicesOf } from './context.ts';
import { withStatus } from './errors.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

const getBootDevice: Handler = async (request) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  return servicesOf(request).conductors.getBootDevice(node);
};

const setBootDevice: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, {
    boot_device: { validate: args.string, required: true },
    persistent: { validate: args.boolean },
  });
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const device = params.boot_device as string | undefined;
  // An explicit null reaches the real management interface as None, which it refuses.
  if (device === undefined) throw new InvalidParameterError('Invalid boot device None specified.');
  await servicesOf(request).conductors.setBootDevice(
    node,
    device,
    (params.persistent as boolean | undefined) ?? false,
  );
  reply.code(204);
  return undefined;
};

const supportedBootDevices: Handler = async (request) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const devices = await servicesOf(request).conductors.getSupportedBootDevices(node);
  return { supported_boot_devices: devices };
};

/** _set_maintenance: the flag and its reason, written by the node's conductor. */
async function setMaintenance(
  request: Parameters<Handler>[0],
  ident: string,
  on: boolean,
  reason: string | null,
): Promise<void> {
  const node = await findNode(request, ident);
  node.set('maintenance', on);
  node.set('maintenance_reason', reason);
  const { conductors } = servicesOf(request);
  await withStatus(400, [NoValidHostError], () => conductors.conductorFor(node));
  await conductors.updateNode(node);
}

const putMaintenance: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, { reason: { validate: args.string } });
  args.uuidOrName('node_ident', ident);
  await setMaintenance(request, ident, true, (params.reason as string | undefined) ?? null);
  reply.code(202);
  return undefined;
};

const deleteMaintenance: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  await setMaintenance(request, ident, false, null);
  reply.code(202);
  return undefined;
};

export function registerNodeManagementRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/management/boot_device', {
    GET: getBootDevice,
    PUT: setBootDevice,
  });
  declareRoute(app, '/v1/nodes/:node/management/boot_device/supported', {
    GET: supportedBootDevices,
  });
  declareRoute(app, '/v1/nodes/:node/maintenance', {
    PUT: putMaintenance,
    DELETE: deleteMaintenance,
  });
}
