/**
 * The OpenAPI operations of what agents and other services send: external events (1.54,
 * api/events.ts) and the ramdisk agent's lookup and heartbeat (1.22, api/ramdisk.ts), for
 * openapi-operations.ts.
 */
import type { JsonSchemaObject, OpenApiOperation } from '../../microversion/index.ts';
import { EVENT_VALIDATORS } from './events.ts';
import { FEATURES } from './features.ts';

const NETWORK_EVENT: JsonSchemaObject = {
  type: 'object',
  properties: {
    event: { type: 'string', enum: Object.keys(EVENT_VALIDATORS) },
    port_id: { type: 'string', format: 'uuid' },
    mac_address: { type: 'string' },
    status: { type: 'string' },
    device_id: { type: ['string', 'null'], format: 'uuid' },
    'binding:host_id': { type: ['string', 'null'], format: 'uuid' },
    'binding:vnic_type': { type: ['string', 'null'] },
  },
  required: ['event', 'port_id', 'mac_address', 'status'],
  additionalProperties: false,
};

export const EVENT_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'post',
    path: '/v1/events',
    since: FEATURES.events,
    tag: 'events',
    summary:
      'Notify the service of external (network) events; accepted events are logged, as the ' +
      'real 21.4 does, and change nothing.',
    body: {
      type: 'object',
      properties: { events: { type: 'array', minItems: 1, items: NETWORK_EVENT } },
      required: ['events'],
      additionalProperties: false,
    },
    responses: [{ status: '204', description: 'Accepted.' }],
  },
];

const LOOKUP_ANSWER: JsonSchemaObject = {
  type: 'object',
  properties: {
    node: {
      type: 'object',
      properties: {
        uuid: { type: 'string', format: 'uuid' },
        properties: { type: 'object' },
        instance_info: { type: 'object' },
        driver_internal_info: { type: 'object' },
        links: { type: 'array' },
      },
      required: ['uuid', 'properties', 'instance_info', 'driver_internal_info', 'links'],
    },
    config: {
      type: 'object',
      properties: {
        metrics: { type: 'object' },
        metrics_statsd: { type: 'object' },
        heartbeat_timeout: { type: 'integer' },
        agent_token: { type: ['string', 'null'] },
        agent_token_required: { type: 'boolean' },
        disable_deep_image_inspection: { type: 'boolean' },
        permitted_image_formats: { type: 'array', items: { type: 'string' } },
        enable_bios_bootloader_install: { type: 'boolean' },
      },
    },
  },
  required: ['node', 'config'],
};

export const RAMDISK_OPERATIONS: readonly OpenApiOperation[] = [
  {
    method: 'get',
    path: '/v1/lookup',
    since: FEATURES.ramdiskEndpoints,
    tag: 'ramdisk',
    public: true,
    summary:
      "A ramdisk agent finds its node by MAC addresses or UUID (under [api] restrict_lookup only in a state a ramdisk runs in); from 1.62 the first lookup hands out the node's agent token, later ones `******`.",
    query: [
      {
        name: 'addresses',
        description: 'Comma-separated MAC addresses (invalid ones are ignored).',
      },
      {
        name: 'node_uuid',
        description: 'The node UUID.',
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    responses: [
      {
        status: '200',
        description: 'The node and the agent configuration.',
        schema: LOOKUP_ANSWER,
      },
    ],
  },
  {
    method: 'post',
    path: '/v1/heartbeat/{node_ident}',
    since: FEATURES.ramdiskEndpoints,
    tag: 'ramdisk',
    public: true,
    summary:
      "A ramdisk agent's heartbeat, with the node's agent token; passed to the node's conductor.",
    pathParameters: { node_ident: 'The node UUID or name.' },
    body: {
      type: 'object',
      properties: {
        callback_url: { type: 'string' },
        agent_token: { type: 'string' },
        agent_version: { type: 'string', description: 'From 1.36.' },
        agent_verify_ca: { type: 'string', description: 'From 1.68.' },
        agent_status: {
          type: 'string',
          enum: ['start', 'end', 'error'],
          description: 'From 1.72.',
        },
        agent_status_message: { type: 'string', description: 'From 1.72.' },
      },
      required: ['callback_url'],
      additionalProperties: false,
    },
    responses: [{ status: '202', description: 'Accepted.' }],
  },
];
