/**
 * POST /reshaper (1.30): inventories per provider (as PUT .../inventories takes them) and
 * allocations per consumer (as POST /allocations takes them at the same microversion, but
 * possibly none at all).
 */
import {
  type ConsumerSection,
  POST_ALLOCATIONS_V1_28,
  POST_ALLOCATIONS_V1_34,
  POST_ALLOCATIONS_V1_38,
} from './allocation.ts';
import { type InventoryInput, REPLACE_INVENTORIES_SCHEMA } from './inventory.ts';
import type { JsonSchema } from './validator.ts';

const PROVIDER_UUID_KEY = '^[0-9a-fA-F-]{36}$';

function reshaperSchema(allocations: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      inventories: {
        type: 'object',
        patternProperties: { [PROVIDER_UUID_KEY]: REPLACE_INVENTORIES_SCHEMA },
        minProperties: 1,
        additionalProperties: false,
      },
      allocations: { ...allocations, minProperties: 0 },
    },
    required: ['inventories', 'allocations'],
    additionalProperties: false,
  };
}

export const RESHAPER_SCHEMA = reshaperSchema(POST_ALLOCATIONS_V1_28);
/** 1.34: allocations may carry mappings. */
export const RESHAPER_SCHEMA_1_34 = reshaperSchema(POST_ALLOCATIONS_V1_34);
/** 1.38: consumer types. */
export const RESHAPER_SCHEMA_1_38 = reshaperSchema(POST_ALLOCATIONS_V1_38);

export interface ReshaperBody {
  readonly inventories: Readonly<
    Record<
      string,
      {
        readonly resource_provider_generation: number;
        readonly inventories: Readonly<Record<string, InventoryInput>>;
      }
    >
  >;
  readonly allocations: Readonly<Record<string, ConsumerSection>>;
}
