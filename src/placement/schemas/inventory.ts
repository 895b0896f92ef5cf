/**
 * Inventory bodies as the real service validates them (placement/schemas/inventory.py):
 * one record per resource class, `total` required, every integer capped at the database's
 * MAX_INT, `allocation_ratio` at the largest single-precision float.
 */
import type { JsonSchema } from './validator.ts';

/** Largest value of the integer columns (MySQL INT). */
export const MAX_INT = 2147483647;
/** Largest single-precision float, the cap of `allocation_ratio`. */
export const SQL_SP_FLOAT_MAX = 3.40282e38;
/** Resource class and trait names: upper-case letters, digits and underscores. */
export const RC_PATTERN = '^[A-Z0-9_]+$';

const boundedInteger = (minimum: number) => ({ type: 'integer', maximum: MAX_INT, minimum });

const inventoryProperties = {
  resource_provider_generation: { type: 'integer' },
  total: boundedInteger(1),
  reserved: boundedInteger(0),
  min_unit: boundedInteger(1),
  max_unit: boundedInteger(1),
  step_size: boundedInteger(1),
  allocation_ratio: { type: 'number', maximum: SQL_SP_FLOAT_MAX },
} as const;

/** PUT /resource_providers/{uuid}/inventories/{resource_class}. */
export const UPDATE_INVENTORY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: inventoryProperties,
  required: ['total', 'resource_provider_generation'],
  additionalProperties: false,
};

/** POST /resource_providers/{uuid}/inventories: no generation needed, the class named. */
export const CREATE_INVENTORY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    ...inventoryProperties,
    resource_class: { type: 'string', pattern: RC_PATTERN },
  },
  required: ['total', 'resource_class'],
  additionalProperties: false,
};

/** One record of PUT /resource_providers/{uuid}/inventories (a generation is tolerated). */
export const INVENTORY_RECORD_SCHEMA: JsonSchema = {
  type: 'object',
  properties: inventoryProperties,
  required: ['total'],
  additionalProperties: false,
};

/**
 * PUT /resource_providers/{uuid}/inventories. Records are checked only under keys that look
 * like class names (patternProperties); other keys are left to the handler.
 */
export const REPLACE_INVENTORIES_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    resource_provider_generation: { type: 'integer' },
    inventories: {
      type: 'object',
      patternProperties: { [RC_PATTERN]: INVENTORY_RECORD_SCHEMA },
    },
  },
  required: ['resource_provider_generation', 'inventories'],
  additionalProperties: false,
};

/** An inventory record as sent: only `total` is sure to be there. */
export interface InventoryInput {
  readonly total: number;
  readonly reserved?: number;
  readonly min_unit?: number;
  readonly max_unit?: number;
  readonly step_size?: number;
  readonly allocation_ratio?: number;
  readonly resource_provider_generation?: number;
}

export interface CreateInventoryBody extends InventoryInput {
  readonly resource_class: string;
}

export interface UpdateInventoryBody extends InventoryInput {
  readonly resource_provider_generation: number;
}

export interface ReplaceInventoriesBody {
  readonly resource_provider_generation: number;
  readonly inventories: Readonly<Record<string, InventoryInput>>;
}
