/**
 * The ramdisk agent's endpoints (API 1.22, Ironic 21.4.4's api/controllers/v1/ramdisk.py as
 * Debian ships it): `GET /v1/lookup` finds the node an agent boots on, by its MAC addresses or
 * its UUID, and hands it the node and its configuration, with the agent token from 1.62;
 * `POST /v1/heartbeat/{node}` passes the agent's heartbeat to the node's conductor (202).
 * Both are public routes (no token under Keystone; `rule:public_api`).
 *
 * The token: from 1.62 a lookup asks the node's conductor (RPC get_node_with_token), which
 * stores a new one the first time and answers `******` after; below 1.62 the node is read as
 * stored, so its token, if it has one, is shown as it is (the real one does the same). A
 * heartbeat without a token is refused here, one with the wrong token by the conductor.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fastTrackEnabled, isAgentTokenPresent, lookupAllowed } from '../common/agent-token.ts';
import { NotFoundError, NoValidHostError } from '../common/errors.ts';
import type { AgentHeartbeat } from '../drivers/interfaces/index.ts';
import type { NodeObject } from '../objects/index.ts';
import { publicRouteAccessOf } from './access.ts';
import {
  DEFAULT_RAMDISK_SETTINGS,
  type Handler,
  type RamdiskSettings,
  servicesOf,
} from './context.ts';
import { ClientSideError, HttpAbort, withStatus } from './errors.ts';
import { FEATURES } from './features.ts';
import { requireNodeActions } from './node-actions-rpc.ts';
import { findNode } from './node-lookup.ts';
import { NodeViewContext, nodeBody } from './node-view.ts';
import { args, bindParams, requestParams } from './params.ts';
import { isValidMac } from './port-args.ts';
import { declareRoute } from './routing.ts';

/** _LOOKUP_RETURN_FIELDS: what an agent is shown of its node. */
const LOOKUP_FIELDS = ['uuid', 'properties', 'instance_info', 'driver_internal_info'];

/** AGENT_VALID_STATES: what the anaconda ramdisk reports in `agent_status`. */
const AGENT_STATUSES = ['start', 'end', 'error'];

/**
 * The agent's configuration as the real one answers it with its defaults: Baton has no
 * `[metrics]`, `[metrics_statsd]` agent options, nor `[conductor]` image checks of its own.
 */
function agentConfig(settings: RamdiskSettings, token: unknown): Record<string, unknown> {
  return {
    metrics: {
      backend: 'noop',
      prepend_host: false,
      prepend_uuid: false,
      prepend_host_reverse: true,
      global_prefix: null,
    },
    metrics_statsd: { statsd_host: 'localhost', statsd_port: 8125 },
    heartbeat_timeout: settings.heartbeatTimeout,
    agent_token: token ?? null,
    // Sent as an explicit true so that newer agents lock the behaviour in.
    agent_token_required: true,
    disable_deep_image_inspection: false,
    permitted_image_formats: ['raw', 'qcow2', 'iso'],
    enable_bios_bootloader_install: true,
  };
}

function ramdiskSettings(request: FastifyRequest): RamdiskSettings {
  return { ...DEFAULT_RAMDISK_SETTINGS, ...servicesOf(request).settings.ramdisk };
}

/** `[api] enable_ramdisk_endpoints` off: HTTPForbidden naming the path, before anything else. */
function refuseWhenDisabled(request: FastifyRequest, settings: RamdiskSettings): void {
  if (settings.enabled) return;
  const path = (request.raw.url ?? '').split('?')[0] as string;
  throw new ClientSideError(`Access was denied to the following resource: ${path}`, 403);
}

function notFoundBelowRamdisk(request: FastifyRequest): void {
  if (!request.microversion.atLeast(FEATURES.ramdiskEndpoints)) {
    throw new ClientSideError('Resource could not be found.', 404);
  }
}

/** The node a lookup names; every miss is the same bare NotFound, so states do not leak. */
async function lookedUpNode(
  request: FastifyRequest,
  addresses: readonly string[],
  nodeUuid: string | undefined,
): Promise<NodeObject> {
  const { store } = servicesOf(request);
  try {
    return nodeUuid === undefined
      ? await store.nodes.getByPortAddresses(addresses)
      : await store.nodes.get(nodeUuid);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    request.log.error(`No node has been found during lookup: ${error.message}`);
    throw new ClientSideError('Resource could not be found.', 404);
  }
}

const lookup: Handler = async (request) => {
  const params = bindParams(request, {
    addresses: { validate: args.stringList },
    node_uuid: { validate: args.uuid },
  });
  const settings = ramdiskSettings(request);
  refuseWhenDisabled(request, settings);
  notFoundBelowRamdisk(request);
  publicRouteAccessOf(request)?.authorize('baremetal:driver:ipa_lookup');
  const nodeUuid = params.node_uuid as string | undefined;
  const given = (params.addresses as string[] | undefined) ?? [];
  // Invalid addresses are ignored (and logged), as the real lookup does.
  const addresses = given.filter(isValidMac);
  if (addresses.length < given.length) {
    const invalid = given.filter((address) => !isValidMac(address));
    request.log.warn(`Lookup ignores the invalid MAC addresses "${invalid.join(', ')}"`);
  }
  if (addresses.length === 0 && nodeUuid === undefined) {
    throw new ClientSideError("At least one of 'addresses' and 'node_uuid' parameters is required");
  }
  let node = await lookedUpNode(request, addresses, nodeUuid);
  if (settings.restrictLookup) {
    const state = String(node.get('provision_state'));
    const driverInfo = node.get('driver_info') as Record<string, unknown> | null;
    if (!lookupAllowed(state, fastTrackEnabled(driverInfo, settings.fastTrack))) {
      request.log.error(
        `Lookup is not allowed for node ${node.get('uuid')} in the provision state ${state}`,
      );
      throw new ClientSideError('Resource could not be found.', 404);
    }
  }
  if (request.microversion.atLeast(FEATURES.agentToken)) {
    const { conductors } = servicesOf(request);
    await withStatus(400, [NoValidHostError], () => conductors.conductorFor(node));
    requireNodeActions(request);
    node = await conductors.getNodeWithToken(node);
  }
  const internal = node.get('driver_internal_info') as Record<string, unknown> | null;
  const token = isAgentTokenPresent(internal) ? internal?.agent_secret_token : null;
  const view = new NodeViewContext(request);
  return { node: await nodeBody(view, node, LOOKUP_FIELDS), config: agentConfig(settings, token) };
};

/** HeartbeatController.post's arguments after `node_ident`, in its signature's order. */
const HEARTBEAT_POSITIONAL = [
  'callback_url',
  'agent_version',
  'agent_token',
  'agent_verify_ca',
  'agent_status',
  'agent_status_message',
];

/**
 * The heartbeat's parameters: pecan binds the path's segments after the node to the
 * signature's arguments in order (`/v1/heartbeat/{node}/{callback_url}/…`), then the query and
 * the JSON body's keys. A name given both ways, or more segments than arguments, is a
 * TypeError and a 500 in the real service; here the same words with a 400.
 */
function heartbeatParams(request: FastifyRequest, segments: readonly string[]) {
  const named = requestParams(request);
  if (segments.length > HEARTBEAT_POSITIONAL.length) {
    throw new ClientSideError(
      `HeartbeatController.post() takes from 3 to 8 positional arguments but ${segments.length + 2} were given`,
    );
  }
  const positional: Record<string, unknown> = {};
  for (const [i, segment] of segments.entries()) {
    const name = HEARTBEAT_POSITIONAL[i] as string;
    if (Object.hasOwn(named, name)) {
      throw new ClientSideError(
        `HeartbeatController.post() got multiple values for argument '${name}'`,
      );
    }
    positional[name] = segment;
  }
  return { ...named, ...positional };
}

const heartbeat: Handler = async (request, reply) => {
  const { node_ident: pathIdent, '*': rest } = request.params as {
    node_ident: string;
    '*'?: string;
  };
  // Decoded by the router, as WSGI's PATH_INFO is; a trailing slash adds no argument.
  const segments = (rest ?? '').split('/').filter((segment) => segment !== '');
  const params = bindParams(
    request,
    {
      node_ident: { validate: args.uuidOrName, required: true },
      callback_url: { validate: args.string, required: true },
      agent_version: { validate: args.string },
      agent_token: { validate: args.string },
      agent_verify_ca: { validate: args.string },
      agent_status: { validate: args.string },
      agent_status_message: { validate: args.string },
    },
    {
      params: {
        ...heartbeatParams(request, segments),
        node_ident: pathIdent,
      },
    },
  );
  refuseWhenDisabled(request, ramdiskSettings(request));
  notFoundBelowRamdisk(request);
  const text = (name: string) => (params[name] as string | undefined) ?? null;
  const beat: AgentHeartbeat = {
    callbackUrl: params.callback_url as string,
    agentVersion: text('agent_version'),
    agentVerifyCa: text('agent_verify_ca'),
    agentStatus: text('agent_status'),
    agentStatusMessage: text('agent_status_message'),
  };
  const version = request.microversion;
  if (beat.agentVersion && !version.atLeast(FEATURES.agentVersionHeartbeat)) {
    throw new ClientSideError('Field "agent_version" not recognised');
  }
  if ((beat.agentStatus || beat.agentStatusMessage) && !version.atLeast(FEATURES.heartbeatStatus)) {
    throw new ClientSideError('Fields "agent_status" and "agent_status_message" not recognised.');
  }
  publicRouteAccessOf(request)?.authorize('baremetal:node:ipa_heartbeat');
  if (beat.agentVerifyCa !== null && !version.atLeast(FEATURES.heartbeatVerifyCa)) {
    throw new ClientSideError('Field "agent_verify_ca" not recognised in this version');
  }
  const ident = params.node_ident as string;
  const node = await findNode(request, ident, { withSuffix: true });
  const internal = (node.get('driver_internal_info') as Record<string, unknown> | null) ?? {};
  const agentUrl = internal.agent_url;
  // An agent whose address changed is not the one the conductor talks to.
  if (agentUrl !== undefined && agentUrl !== null && agentUrl !== beat.callbackUrl) {
    request.log.error(
      `Received heartbeat for node ${node.get('uuid')} with callback URL ${beat.callbackUrl}. This is not expected, and the heartbeat will not be processed.`,
    );
    throw new ClientSideError('Detected change in ramdisk provided "callback_url"');
  }
  const token = text('agent_token');
  if (token === null) {
    request.log.error(`Agent heartbeat received for node ${ident} without an agent token.`);
    throw new ClientSideError('Agent token is required for heartbeat processing.');
  }
  if (beat.agentStatus !== null && !AGENT_STATUSES.includes(beat.agentStatus)) {
    throw new ClientSideError(
      `Agent status is invalid. Valid states are ${AGENT_STATUSES.join(',')}.`,
    );
  }
  const { conductors } = servicesOf(request);
  await withStatus(400, [NoValidHostError], () => conductors.conductorFor(node));
  requireNodeActions(request);
  await conductors.heartbeat(node, token, beat);
  reply.code(202);
  return undefined;
};

/** POST /v1/heartbeat without a node: the controller's post() misses its first argument. */
const heartbeatWithoutNode: Handler = async (request) => {
  refuseWhenDisabled(request, ramdiskSettings(request));
  throw new ClientSideError('Missing mandatory parameter: node_ident');
};

/** A path below /v1/lookup: the controller has get_all only (WebOb's 405, Allow: GET). */
const refuseBelowLookup: Handler = async () => {
  throw new HttpAbort(405, '', { allow: 'GET' });
};

export function registerRamdiskRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/lookup', { GET: lookup });
  declareRoute(app, '/v1/lookup/*', { GET: refuseBelowLookup }, ['GET']);
  declareRoute(app, '/v1/heartbeat', { POST: heartbeatWithoutNode });
  declareRoute(app, '/v1/heartbeat/:node_ident', { POST: heartbeat });
  declareRoute(app, '/v1/heartbeat/:node_ident/*', { POST: heartbeat });
}
