/**
 * /v1/nodes/{node}/management/boot_device (+ /supported), /management/inject_nmi (1.29),
 * /management/indicators[/{indicator}] and /v1/nodes/{node}/maintenance, as the real API serves
 * them: the boot device, NMI and indicators are the conductor's (RPC; NMI and indicators 1.4),
 * maintenance is a node update sent to the conductor (update_node; a driver no conductor runs is
 * 400 there, as the real API converts it).
 *
 * Indicators have no version gate in the real 21.4 API (the API reference says 1.63, the
 * controller checks nothing), and none here. An indicator is named `<name>@<component>`; a name
 * without `@` is the real 400 `Malformed indicator name "<name>"`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  InvalidParameterError,
  MissingParameterError,
  NoValidHostError,
} from '../common/errors.ts';
import type { SupportedIndicators } from '../drivers/interfaces/index.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, withStatus } from './errors.ts';
import { FEATURES } from './features.ts';
import { buildUrl, publicUrl } from './links.ts';
import { requireNodeActions } from './node-actions-rpc.ts';
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

const injectNmi: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  if (!request.microversion.atLeast(FEATURES.injectNmi)) {
    throw new ClientSideError('Resource could not be found.', 404);
  }
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  requireNodeActions(request);
  await conductors.injectNmi(node);
  reply.code(204);
  return undefined;
};

/** IndicatorAtComponent(unique_name=...): `<name>@<component>`, split at the first `@`. */
function indicatorAtComponent(unique: string | undefined): { component: string; name: string } {
  if (!unique) throw new MissingParameterError('Missing indicator name "%s"');
  const at = unique.indexOf('@');
  if (at < 0) throw new InvalidParameterError(`Malformed indicator name "${unique}"`);
  return { name: unique.slice(0, at), component: unique.slice(at + 1) };
}

/** indicator_list_from_dict: links name the node as the request did. */
function indicatorList(request: FastifyRequest, ident: string, indicators: SupportedIndicators) {
  const base = publicUrl(request);
  const list = [];
  for (const [component, names] of Object.entries(indicators)) {
    for (const [name, fields] of Object.entries(names)) {
      const unique = `${name}@${component}`;
      const path = `${ident}/management/indicators/${unique}`;
      list.push({
        name: unique,
        component,
        readonly: fields.readonly ?? true,
        states: fields.states ?? [],
        links: [
          { href: buildUrl(base, 'nodes', path), rel: 'self' },
          { href: buildUrl(base, 'nodes', path, true), rel: 'bookmark' },
        ],
      });
    }
  }
  return { indicators: list };
}

function indicatorParam(request: FastifyRequest): string {
  return (request.params as { indicator: string }).indicator;
}

/** get_all(node_ident, **kwargs): any other parameter is taken and ignored, as the real one does. */
const listIndicators: Handler = async (request) => {
  const ident = nodeIdent(request);
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  requireNodeActions(request);
  return indicatorList(request, ident, await conductors.getSupportedIndicators(node));
};

const getIndicator: Handler = async (request) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  const indicator = args.string('indicator', indicatorParam(request));
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  const { component, name } = indicatorAtComponent(indicator);
  requireNodeActions(request);
  return { state: await conductors.getIndicatorState(node, component, name) };
};

const setIndicator: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, { state: { validate: args.string, required: true } });
  args.uuidOrName('node_ident', ident);
  const indicator = args.string('indicator', indicatorParam(request));
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  const { component, name } = indicatorAtComponent(indicator);
  requireNodeActions(request);
  // An explicit null reaches the real interface as None; the fake one refuses any state.
  await conductors.setIndicatorState(node, component, name, (params.state as string) ?? 'None');
  reply.code(204);
  return undefined;
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
  declareRoute(app, '/v1/nodes/:node/management/inject_nmi', { PUT: injectNmi });
  declareRoute(app, '/v1/nodes/:node/management/indicators', { GET: listIndicators });
  declareRoute(app, '/v1/nodes/:node/management/indicators/:indicator', {
    GET: getIndicator,
    PUT: setIndicator,
  });
  declareRoute(app, '/v1/nodes/:node/maintenance', {
    PUT: putMaintenance,
    DELETE: deleteMaintenance,
  });
}
