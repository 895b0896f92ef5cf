/**
 * JSON schemas of resource provider bodies and of the provider list's query string, one per
 * microversion that changed them (as the real service validates them).
 */
import type { JsonSchema } from './validator.ts';

const name = { type: 'string', maxLength: 200 };
const uuid = { type: 'string', format: 'uuid' };
const parentUuid = { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] };

export const POST_PROVIDER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { name, uuid },
  required: ['name'],
  additionalProperties: false,
};

/** 1.14: a parent may be named (or null). */
export const POST_PROVIDER_SCHEMA_1_14: JsonSchema = {
  type: 'object',
  properties: { name, uuid, parent_provider_uuid: parentUuid },
  required: ['name'],
  additionalProperties: false,
};

/** PUT takes the same fields as POST but never the uuid. */
export const PUT_PROVIDER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { name },
  required: ['name'],
  additionalProperties: false,
};

export const PUT_PROVIDER_SCHEMA_1_14: JsonSchema = {
  type: 'object',
  properties: { name, parent_provider_uuid: parentUuid },
  required: ['name'],
  additionalProperties: false,
};

const listProperties = { name: { type: 'string' }, uuid };

function listSchema(extra: Record<string, unknown>): JsonSchema {
  return {
    type: 'object',
    properties: { ...listProperties, ...extra },
    additionalProperties: false,
  };
}

export const LIST_PROVIDERS_QUERY_1_0 = listSchema({});
/** 1.3: member_of. */
export const LIST_PROVIDERS_QUERY_1_3 = listSchema({ member_of: { type: 'string' } });
/** 1.4: resources. */
export const LIST_PROVIDERS_QUERY_1_4 = listSchema({
  member_of: { type: 'string' },
  resources: { type: 'string' },
});
/** 1.14: in_tree. */
export const LIST_PROVIDERS_QUERY_1_14 = listSchema({
  member_of: { type: 'string' },
  resources: { type: 'string' },
  in_tree: uuid,
});
/** 1.18: required. */
export const LIST_PROVIDERS_QUERY_1_18 = listSchema({
  member_of: { type: 'string' },
  resources: { type: 'string' },
  in_tree: uuid,
  required: { type: 'string' },
});
