/**
 * /v1/nodes/{node}/states as the real API serves it (NodeStatesController): the states
 * document per version, power changes (soft ones and `timeout` from 1.27) and provisioning
 * verbs with their arguments (configdrive, clean_steps, deploy_steps, rescue_password,
 * disable_ramdisk), checked in the real order; the work itself is the conductor's (RPC), the
 * answer 202 with the states' Location.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Version } from '../../microversion/index.ts';
import type { JsonSchema } from '../../python-compat/index.ts';
import { errorText, schemaFailure } from '../../python-compat/index.ts';
import {
  InvalidError,
  InvalidParameterError,
  InvalidStateRequestedError,
  NodeInMaintenanceError,
  NodeLockedError,
} from '../common/errors.ts';
import { ProvisionState } from '../common/provision-states.ts';
import type { NodeObject } from '../objects/index.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, minimalVersionRequired, NotAcceptableError } from './errors.ts';
import { FEATURES, gatesAt } from './features.ts';
import { buildUrl, publicUrl } from './links.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams, pyStr } from './params.ts';
import {
  notUnderstoodMessage,
  shownProvisionState,
  stateVerbGate,
  verbAction,
  verbActionableFrom,
  verbGate,
} from './provision-verbs.ts';
import { declareRoute } from './routing.ts';

const POWER_TARGETS = ['power on', 'power off', 'rebooting', 'soft rebooting', 'soft power off'];
const SOFT_TARGETS = ['soft rebooting', 'soft power off'];
const STEP_INTERFACES = ['power', 'management', 'deploy', 'bios', 'raid'];

const CLEAN_STEPS_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/schema#',
  title: 'Clean steps schema',
  type: 'array',
  items: {
    type: 'object',
    required: ['interface', 'step'],
    properties: {
      interface: { description: 'driver interface', enum: STEP_INTERFACES },
      step: { description: 'name of clean step', type: 'string', minLength: 1 },
      args: { description: 'additional args', type: 'object', properties: {} },
    },
    additionalProperties: false,
  },
};

const DEPLOY_STEPS_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/schema#',
  title: 'Deploy steps schema',
  type: 'array',
  items: {
    type: 'object',
    properties: {
      args: { type: 'object' },
      interface: { type: 'string', enum: STEP_INTERFACES },
      priority: {
        anyOf: [
          { type: 'integer', minimum: 0 },
          { type: 'string', minLength: 1, pattern: '^[0-9]+$' },
        ],
      },
      step: { type: 'string', minLength: 1 },
    },
    required: ['interface', 'step', 'args', 'priority'],
    additionalProperties: false,
  },
};

const CONFIG_DRIVE_SCHEMA: JsonSchema = {
  anyOf: [
    {
      type: 'object',
      properties: {
        meta_data: { type: 'object' },
        network_data: { type: 'object' },
        user_data: { type: ['object', 'array', 'string', 'null'] },
        vendor_data: { type: 'object' },
      },
      additionalProperties: false,
    },
    { type: ['string', 'null'] },
  ],
};

/** Base64 letters, and the whitespace common in base64 values. */
const BASE64 = /^[A-Za-z0-9+/=\n\r\t ]*$/;

/** str() of jsonschema's ValidationError, as Ironic puts it in its messages. */
function validationText(schema: JsonSchema, value: unknown): string | undefined {
  const failure = schemaFailure(schema, value);
  if (failure === undefined) return undefined;
  return failure.explained ? errorText(failure.error) : failure.message;
}

/**
 * The fields of `GET /v1/nodes/{node}/states` at a version (node_states_convert), given
 * whether the version has reached a gate; the OpenAPI documents list the same.
 */
export function nodeStatesFields(reached: (gate: Version) => boolean): string[] {
  const fields = [
    'console_enabled',
    'last_error',
    'power_state',
    'provision_state',
    'target_power_state',
    'target_provision_state',
    'provision_updated_at',
  ];
  if (reached(FEATURES.raidConfig)) fields.push('raid_config', 'target_raid_config');
  if (reached(FEATURES.nodeBootMode)) fields.push('boot_mode', 'secure_boot');
  return fields;
}

/** node_states_convert. */
function statesBody(request: FastifyRequest, node: NodeObject): Record<string, unknown> {
  const fields = nodeStatesFields((gate) => request.microversion.atLeast(gate));
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = node.get(field as 'power_state') as unknown;
    body[field] =
      value !== null && typeof (value as { isoformat?: unknown }).isoformat === 'function'
        ? (value as { isoformat(): string }).isoformat()
        : value;
  }
  body.provision_state = shownProvisionState(
    body.provision_state as string | null,
    gatesAt(request.microversion),
  );
  return body;
}

function statesLocation(request: FastifyRequest, reply: FastifyReply, ident: string): void {
  reply.header('location', buildUrl(publicUrl(request), 'nodes', `${ident}/states`));
}

const states: Handler = async (request) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  return statesBody(request, await findNode(request, ident));
};

const power: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, {
    target: { validate: args.string, required: true },
    timeout: { validate: args.integer },
  });
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  const target = params.target as string | undefined;
  const timeout = params.timeout as number | undefined;
  const soft = target !== undefined && SOFT_TARGETS.includes(target);
  if ((soft || timeout) && !request.microversion.atLeast(FEATURES.softPowerOff)) {
    throw new NotAcceptableError();
  }
  if (timeout !== undefined && timeout < 1) {
    throw new InvalidError('timeout has to be positive integer');
  }
  const provisionState = node.get('provision_state');
  if (target === undefined || !POWER_TARGETS.includes(target)) {
    throw new InvalidStateRequestedError(String(target), ident, pyStr(node.get('power_state')));
  }
  if (provisionState === ProvisionState.CLEANWAIT || provisionState === ProvisionState.CLEANING) {
    throw new InvalidStateRequestedError(target, ident, pyStr(provisionState));
  }
  await conductors.changeNodePowerState(node, target, timeout);
  statesLocation(request, reply, ident);
  reply.code(202);
  return undefined;
};

/** check_allow_configdrive. */
function checkConfigdrive(request: FastifyRequest, target: string, configdrive: unknown): void {
  if (!configdrive || (typeof configdrive === 'object' && Object.keys(configdrive).length === 0)) {
    return;
  }
  const allowed = ['active'];
  if (request.microversion.atLeast(FEATURES.rebuildConfigDrive)) allowed.push('rebuild');
  if (!allowed.includes(target)) {
    throw new ClientSideError(
      `Adding a config drive is only supported when setting provision state to ${allowed.join(', ')}`,
    );
  }
  const problem = validationText(CONFIG_DRIVE_SCHEMA, configdrive);
  if (problem !== undefined) throw new ClientSideError(`Invalid configdrive format: ${problem}`);
  if (typeof configdrive === 'object') {
    if (!request.microversion.atLeast(FEATURES.buildConfigDrive)) {
      throw new ClientSideError(
        `Providing a JSON object for configdrive is only supported starting with API version ${FEATURES.buildConfigDrive.text}`,
      );
    }
    if (
      Object.hasOwn(configdrive, 'vendor_data') &&
      !request.microversion.atLeast(FEATURES.configDriveVendorData)
    ) {
      throw new ClientSideError(
        `Providing vendor_data in configdrive is only supported starting with API version ${FEATURES.configDriveVendorData.text}`,
      );
    }
  } else if (!String(configdrive).includes('://') && !BASE64.test(String(configdrive))) {
    throw new ClientSideError(
      'Invalid configdrive format: it is neither a JSON, nor a URL, nor a base64 string',
    );
  }
}

/** The argument checks after the state machine's, in the real order. */
function checkProvisionArguments(
  request: FastifyRequest,
  target: string,
  params: Record<string, unknown>,
): void {
  checkConfigdrive(request, target, params.configdrive);
  const disableRamdisk = params.disable_ramdisk as boolean | undefined;
  if (disableRamdisk !== undefined) {
    if (!request.microversion.atLeast(FEATURES.cleanDisableRamdisk)) {
      throw new NotAcceptableError('disable_ramdisk is not acceptable in this API version');
    }
    if (target !== 'clean') {
      throw new ClientSideError('disable_ramdisk is supported only with manual cleaning');
    }
  }
  const cleanSteps = params.clean_steps as unknown[] | undefined;
  if (cleanSteps && cleanSteps.length > 0 && target !== 'clean') {
    throw new ClientSideError(
      '"clean_steps" is only valid when setting target provision state to clean',
    );
  }
  const deploySteps = params.deploy_steps as unknown[] | undefined;
  if (deploySteps && deploySteps.length > 0) {
    if (!request.microversion.atLeast(FEATURES.deploySteps)) {
      throw minimalVersionRequired(FEATURES.deploySteps.text);
    }
    if (target !== 'active' && target !== 'rebuild') {
      throw new ClientSideError(
        '"deploy_steps" is only valid when setting target provision state to active or rebuild',
      );
    }
  }
  if (
    params.rescue_password !== undefined &&
    params.rescue_password !== null &&
    target !== 'rescue'
  ) {
    throw new ClientSideError(
      '"rescue_password" is only valid when setting target provision state to rescue',
    );
  }
}

/** _do_provision_action: the RPC the verb asks for. */
async function provisionAction(
  request: FastifyRequest,
  node: NodeObject,
  target: string,
  params: Record<string, unknown>,
): Promise<void> {
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  const action = verbAction(target);
  switch (action) {
    case 'deploy':
    case 'rebuild': {
      const deploySteps = params.deploy_steps as unknown[] | undefined;
      if (deploySteps && deploySteps.length > 0) {
        const problem = validationText(DEPLOY_STEPS_SCHEMA, deploySteps);
        if (problem !== undefined)
          throw new InvalidParameterError(`Invalid deploy_steps: ${problem}`);
      }
      await conductors.doNodeDeploy(node, {
        rebuild: action === 'rebuild',
        ...(params.configdrive === undefined ? {} : { configdrive: params.configdrive }),
        ...(deploySteps === undefined || deploySteps === null ? {} : { deploySteps }),
      });
      return;
    }
    case 'unrescue':
      return conductors.doNodeUnrescue(node);
    case 'rescue': {
      const password = params.rescue_password as string | undefined;
      if (!password || password.trim() === '') {
        throw new ClientSideError(
          'A non-empty "rescue_password" is required when setting target provision state to rescue',
        );
      }
      return conductors.doNodeRescue(node, password);
    }
    case 'tearDown':
      return conductors.doNodeTearDown(node);
    case 'inspect':
      return conductors.inspectHardware(node);
    case 'clean': {
      const cleanSteps = params.clean_steps as unknown[] | undefined;
      if (!cleanSteps || cleanSteps.length === 0) {
        throw new ClientSideError(
          '"clean_steps" is required when setting target provision state to clean',
        );
      }
      const problem = validationText(CLEAN_STEPS_SCHEMA, cleanSteps);
      if (problem !== undefined) throw new InvalidParameterError(`Invalid clean_steps: ${problem}`);
      return conductors.doNodeClean(
        node,
        cleanSteps,
        params.disable_ramdisk as boolean | undefined,
      );
    }
    case 'provisioningAction':
      return conductors.doProvisioningAction(node, target);
    default:
      throw new ClientSideError(notUnderstoodMessage(target));
  }
}

const provision: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, {
    target: { validate: args.string, required: true },
    configdrive: { validate: args.types('NoneType', 'dict', 'str') },
    clean_steps: { validate: args.types('NoneType', 'list') },
    deploy_steps: { validate: args.types('NoneType', 'list') },
    rescue_password: { validate: args.string },
    disable_ramdisk: { validate: args.boolean },
  });
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  const target = String(params.target);
  const gate = verbGate(target);
  if (gate !== undefined && !request.microversion.atLeast(FEATURES[gate])) {
    throw new NotAcceptableError();
  }
  const uuid = String(node.get('uuid'));
  if ((target === 'active' || target === 'rebuild') && node.get('maintenance')) {
    throw new NodeInMaintenanceError('provisioning', uuid);
  }
  const state = String(node.get('provision_state'));
  if (!verbActionableFrom(state, target)) {
    const holder = node.get('reservation');
    if (holder) throw new NodeLockedError(uuid, holder);
    throw new InvalidStateRequestedError(target, uuid, state);
  }
  checkProvisionArguments(request, target, params);
  const stateGate = stateVerbGate(state, target);
  if (stateGate !== undefined && !request.microversion.atLeast(FEATURES[stateGate])) {
    throw new NotAcceptableError();
  }
  await provisionAction(request, node, target, params);
  statesLocation(request, reply, ident);
  reply.code(202);
  return undefined;
};

export function registerNodeStateRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/states', { GET: states });
  declareRoute(app, '/v1/nodes/:node/states/power', { PUT: power });
  declareRoute(app, '/v1/nodes/:node/states/provision', { PUT: provision });
}
