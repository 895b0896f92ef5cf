/**
 * The OpenAPI operations of external events (1.54, api/events.ts), for openapi-operations.ts.
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
