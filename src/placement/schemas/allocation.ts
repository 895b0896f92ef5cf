/**
 * Request bodies of PUT /allocations/{consumer_uuid} and POST /allocations, one schema per
 * microversion window, each derived from the previous one as the real service derives them
 * (so validation messages and their order match).
 */
import type { JsonSchema } from './validator.ts';

/** Placement's UUID key pattern: 36 hex digits or dashes (looser than a real UUID). */
export const UUID_KEY_PATTERN = '^[0-9a-fA-F-]{36}$';
/** Resource class names, and consumer types (1.38). */
export const RC_PATTERN = '^[A-Z0-9_]+$';
/** Request group suffixes from 1.33 (used by the 1.34 `mappings`). */
const GROUP_SUFFIX_PATTERN = '[a-zA-Z0-9_-]{1,64}';

// biome-ignore lint/suspicious/noExplicitAny: schemas are edited while they are derived
type Mutable = Record<string, any>;

const clone = (schema: JsonSchema): Mutable => structuredClone(schema) as Mutable;

const amounts = {
  type: 'object',
  minProperties: 1,
  patternProperties: { [RC_PATTERN]: { type: 'integer', minimum: 1 } },
  additionalProperties: false,
};

const externalId = { type: 'string', minLength: 1, maxLength: 255 };

/** 1.0–1.7: a list of {resource_provider: {uuid}, resources}. */
export const PUT_ALLOCATIONS_V1_0: JsonSchema = {
  type: 'object',
  properties: {
    allocations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          resource_provider: {
            type: 'object',
            properties: { uuid: { type: 'string', format: 'uuid' } },
            additionalProperties: false,
            required: ['uuid'],
          },
          resources: amounts,
        },
        required: ['resource_provider', 'resources'],
        additionalProperties: false,
      },
    },
  },
  required: ['allocations'],
  additionalProperties: false,
};

/** 1.8–1.11: project_id and user_id become required. */
export const PUT_ALLOCATIONS_V1_8: JsonSchema = (() => {
  const schema = clone(PUT_ALLOCATIONS_V1_0);
  schema.properties.project_id = externalId;
  schema.properties.user_id = externalId;
  schema.required.push('project_id', 'user_id');
  return schema;
})();

/** 1.12–1.27: allocations keyed by provider uuid, as GET shows them. */
export const PUT_ALLOCATIONS_V1_12: JsonSchema = {
  type: 'object',
  properties: {
    allocations: {
      type: 'object',
      minProperties: 1,
      patternProperties: {
        [UUID_KEY_PATTERN]: {
          type: 'object',
          properties: {
            // Accepted (GET shows it) but not checked.
            generation: { type: 'integer' },
            resources: amounts,
          },
          required: ['resources'],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    project_id: externalId,
    user_id: externalId,
  },
  additionalProperties: false,
  required: ['allocations', 'project_id', 'user_id'],
};

/** One consumer's section of POST /allocations: like 1.12's PUT, but may be empty. */
const DELETABLE_ALLOCATIONS: JsonSchema = (() => {
  const schema = clone(PUT_ALLOCATIONS_V1_12);
  schema.properties.allocations.minProperties = 0;
  return schema;
})();

const nullableGeneration = { type: ['integer', 'null'], additionalProperties: false };

/** POST /allocations from 1.13: sections keyed by consumer uuid. */
export const POST_ALLOCATIONS_V1_13: JsonSchema = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  patternProperties: { [UUID_KEY_PATTERN]: DELETABLE_ALLOCATIONS },
};

/** 1.28–1.33: consumer_generation required (null for a new consumer); empty allocations allowed. */
export const PUT_ALLOCATIONS_V1_28: JsonSchema = (() => {
  const schema = clone(DELETABLE_ALLOCATIONS);
  schema.properties.consumer_generation = nullableGeneration;
  schema.required.push('consumer_generation');
  return schema;
})();

export const POST_ALLOCATIONS_V1_28: JsonSchema = (() => {
  const section = clone(DELETABLE_ALLOCATIONS);
  section.properties.consumer_generation = nullableGeneration;
  section.required.push('consumer_generation');
  const schema = clone(POST_ALLOCATIONS_V1_13);
  schema.patternProperties = { [UUID_KEY_PATTERN]: section };
  return schema;
})();

/** 1.34: optional `mappings` of request group suffixes to provider uuids. */
const mappings = {
  type: 'object',
  minProperties: 1,
  patternProperties: {
    [GROUP_SUFFIX_PATTERN]: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', format: 'uuid' },
    },
  },
};

export const PUT_ALLOCATIONS_V1_34: JsonSchema = (() => {
  const schema = clone(PUT_ALLOCATIONS_V1_28);
  schema.properties.mappings = mappings;
  return schema;
})();

export const POST_ALLOCATIONS_V1_34: JsonSchema = (() => {
  const schema = clone(POST_ALLOCATIONS_V1_28);
  schema.patternProperties = { [UUID_KEY_PATTERN]: PUT_ALLOCATIONS_V1_34 };
  return schema;
})();

/** 1.38: consumer_type required. */
export const PUT_ALLOCATIONS_V1_38: JsonSchema = (() => {
  const schema = clone(PUT_ALLOCATIONS_V1_34);
  schema.properties.consumer_type = {
    type: 'string',
    pattern: RC_PATTERN,
    minLength: 1,
    maxLength: 255,
  };
  schema.required.push('consumer_type');
  return schema;
})();

export const POST_ALLOCATIONS_V1_38: JsonSchema = (() => {
  const schema = clone(POST_ALLOCATIONS_V1_34);
  schema.patternProperties = { [UUID_KEY_PATTERN]: PUT_ALLOCATIONS_V1_38 };
  return schema;
})();

/** Body shapes after validation. */
export interface ProviderAmounts {
  readonly resources: Readonly<Record<string, number>>;
  readonly generation?: number;
}

export interface ConsumerSection {
  readonly allocations: Readonly<Record<string, ProviderAmounts>>;
  readonly project_id?: string;
  readonly user_id?: string;
  readonly consumer_generation?: number | null;
  readonly consumer_type?: string;
  readonly mappings?: unknown;
}

export interface LegacyPutBody {
  readonly allocations: readonly {
    readonly resource_provider: { readonly uuid: string };
    readonly resources: Readonly<Record<string, number>>;
  }[];
  readonly project_id?: string;
  readonly user_id?: string;
}
