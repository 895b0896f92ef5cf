/**
 * The query string of GET /allocation_candidates, one schema per microversion that changed
 * it (the reference's GET_SCHEMA_1_10 … 1_36).
 */
import type { JsonSchema } from './validator.ts';

const text = { type: 'string' };
/** The reference spells some of these as a one-type list; error texts show the schema. */
const textList = { type: ['string'] };
const limit = { type: ['integer', 'string'], pattern: '^[1-9][0-9]*$', minimum: 1, minLength: 1 };

function flat(extra: Record<string, unknown>): JsonSchema {
  return {
    type: 'object',
    properties: { resources: text, ...extra },
    required: ['resources'],
    additionalProperties: false,
  };
}

export const CANDIDATES_QUERY_1_10 = flat({});
/** 1.16: limit. */
export const CANDIDATES_QUERY_1_16 = flat({ limit });
/** 1.17: required. */
export const CANDIDATES_QUERY_1_17 = flat({ limit, required: textList });
/** 1.21: member_of. */
export const CANDIDATES_QUERY_1_21 = flat({ limit, required: textList, member_of: textList });

const NUMBERED = '[1-9][0-9]*';
const NAMED = '[a-zA-Z0-9_-]{1,64}';

/** Keys in the reference's order (1.21's schema with the flat keys moved to patterns). */
function grouped(
  suffix: string,
  keys: readonly string[],
  extra: Record<string, unknown>,
): JsonSchema {
  return {
    type: 'object',
    properties: { limit, group_policy: { type: 'string', enum: ['none', 'isolate'] }, ...extra },
    additionalProperties: false,
    patternProperties: Object.fromEntries(keys.map((key) => [`^${key}(${suffix})?$`, text])),
  };
}

const GROUP_KEYS = ['resources', 'required', 'member_of'];
const GROUP_KEYS_1_31 = [...GROUP_KEYS, 'in_tree'];

/** 1.25: numbered request groups and group_policy. */
export const CANDIDATES_QUERY_1_25 = grouped(NUMBERED, GROUP_KEYS, {});
/** 1.31: in_tree. */
export const CANDIDATES_QUERY_1_31 = grouped(NUMBERED, GROUP_KEYS_1_31, {});
/** 1.33: named suffixes. */
export const CANDIDATES_QUERY_1_33 = grouped(NAMED, GROUP_KEYS_1_31, {});
/** 1.35: root_required. */
export const CANDIDATES_QUERY_1_35 = grouped(NAMED, GROUP_KEYS_1_31, { root_required: textList });
/** 1.36: same_subtree. */
export const CANDIDATES_QUERY_1_36 = grouped(NAMED, GROUP_KEYS_1_31, {
  root_required: textList,
  same_subtree: textList,
});

/** Which suffixes name request groups: numbers before 1.33, names after. */
export const GROUP_KEY_PATTERN = new RegExp(
  `^(resources|required|member_of|in_tree)(${NUMBERED})?$`,
);
export const GROUP_KEY_PATTERN_1_33 = new RegExp(
  `^(resources|required|member_of|in_tree)(${NAMED})?$`,
);
