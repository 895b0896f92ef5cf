/** Query strings of GET /usages (placement/schemas/usage.py). */
import type { JsonSchema } from './validator.ts';

const externalId = { type: 'string', minLength: 1, maxLength: 255 } as const;

/** 1.9 to 1.37: a project, optionally narrowed to one user. */
export const USAGES_QUERY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { project_id: externalId, user_id: externalId },
  required: ['project_id'],
  additionalProperties: false,
};

/** A consumer type name, or the keywords `all` and `unknown` (the real pattern, verbatim). */
export const CONSUMER_TYPE_QUERY_PATTERN = '^[A-Z0-9_]+$|^all|^unknown$';

/** From 1.38: the same, plus a consumer type filter. */
export const USAGES_QUERY_SCHEMA_1_38: JsonSchema = {
  type: 'object',
  properties: {
    project_id: externalId,
    user_id: externalId,
    consumer_type: {
      type: 'string',
      pattern: CONSUMER_TYPE_QUERY_PATTERN,
      minLength: 1,
      maxLength: 255,
    },
  },
  required: ['project_id'],
  additionalProperties: false,
};
