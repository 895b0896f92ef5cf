/** JSON schemas of `PUT /resource_providers/{uuid}/aggregates` bodies. */
import type { JsonSchema } from './validator.ts';

const aggregateList = {
  type: 'array',
  items: { type: 'string', format: 'uuid' },
  uniqueItems: true,
};

/** 1.1 – 1.18: a bare list of aggregate uuids. */
export const PUT_AGGREGATES_SCHEMA_1_1: JsonSchema = aggregateList;

/** 1.19: the list and the provider generation the caller saw. */
export const PUT_AGGREGATES_SCHEMA_1_19: JsonSchema = {
  type: 'object',
  properties: {
    aggregates: aggregateList,
    resource_provider_generation: { type: 'integer' },
  },
  required: ['aggregates', 'resource_provider_generation'],
  additionalProperties: false,
};
