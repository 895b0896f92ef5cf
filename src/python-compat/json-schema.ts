/**
 * JSON Schema validation for the services that answer as Python ones do: Ajv decides
 * (compiled once per schema); when a document is invalid the error reported is the one
 * Python's `jsonschema` reports, in its words (the real services show that text to clients,
 * and clients and tests match on it). Placement and the bare metal service share it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import {
  bestMatch,
  errorText,
  iterErrors,
  type JsonSchema,
  type SchemaError,
} from './jsonschema-errors.ts';

export type { JsonSchema, SchemaError } from './jsonschema-errors.ts';
export { bestMatch, errorText } from './jsonschema-errors.ts';

const HEX32 = /^[0-9a-f]{32}$/i;

/**
 * oslo's is_uuid_like: `urn:` and `uuid:` dropped anywhere, braces stripped from the ends,
 * dashes dropped anywhere; what is left must be 32 hex digits (any case). Not a string: false.
 */
export function isUuidLike(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const bare = value
    .replaceAll('urn:', '')
    .replaceAll('uuid:', '')
    .replace(/^[{}]+|[{}]+$/g, '')
    .replaceAll('-', '');
  return HEX32.test(bare);
}

/** The formats Placement registers with jsonschema (uuid); any other format passes, as there. */
function formatHolds(format: string, value: unknown): boolean {
  return format === 'uuid' ? isUuidLike(value) : true;
}

const ajv = new Ajv({
  allErrors: false,
  strict: false,
  formats: { uuid: (value: string) => isUuidLike(value) },
});
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    // The version a schema names (`$schema`) is Python's choice of validator class; Ajv is
    // given the keywords only (it refuses meta-schemas it does not know).
    const { $schema: _version, ...keywords } = schema as Record<string, unknown>;
    validate = ajv.compile(keywords);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Undefined when `data` is valid, else the problem jsonschema would report, in its full
 * wording (the message; then `Failed validating '<keyword>' in schema[...]:`, the schema, and
 * the instance, both laid out by pprint).
 */
export function schemaProblem(schema: JsonSchema, data: unknown): string | undefined {
  if (validatorFor(schema)(data)) return undefined;
  const best = bestMatch(iterErrors(schema, data, formatHolds));
  if (best !== undefined) return errorText(best);
  const first = validatorFor(schema).errors?.[0];
  return first?.message ?? 'is not valid';
}

/** Why a document is invalid: jsonschema's best match, or Ajv's first error when unexplained. */
export type SchemaFailure =
  | { readonly explained: true; readonly error: SchemaError }
  | { readonly explained: false; readonly message: string };

/**
 * Undefined when `data` is valid, else the error jsonschema's `validate` raises (its
 * `best_match`), with its context for callers that report a root cause as Ironic does.
 * Schemas using keywords the explainer does not walk ($ref...) get Ajv's first message.
 */
export function schemaFailure(schema: JsonSchema, data: unknown): SchemaFailure | undefined {
  if (validatorFor(schema)(data)) return undefined;
  const best = bestMatch(iterErrors(schema, data, formatHolds));
  if (best !== undefined) return { explained: true, error: best };
  const first = validatorFor(schema).errors?.[0];
  return { explained: false, message: first?.message ?? 'is not valid' };
}
