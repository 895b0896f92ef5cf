/** Trait names, the provider-traits body and the `GET /traits` query, as the real service checks them. */
import { CUSTOM_NAME_PATTERN } from './resource-class.ts';
import type { JsonSchema } from './validator.ts';

const TRAIT_NAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };

/** A name `PUT /traits/{name}` accepts. */
export const CUSTOM_TRAIT_NAME: JsonSchema = { ...TRAIT_NAME, pattern: CUSTOM_NAME_PATTERN };

/** `PUT /resource_providers/{uuid}/traits`: any names (unknown ones are refused later). */
export const PROVIDER_TRAITS_BODY: JsonSchema = {
  type: 'object',
  properties: {
    traits: { type: 'array', items: TRAIT_NAME },
    resource_provider_generation: { type: 'integer' },
  },
  required: ['traits', 'resource_provider_generation'],
  additionalProperties: false,
};

export const LIST_TRAITS_QUERY: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    associated: { type: 'string' },
  },
  additionalProperties: false,
};
