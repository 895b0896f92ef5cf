/**
 * JSON Schema validation: Ajv decides (compiled once per schema); when a document is invalid
 * the error reported is the one Python's `jsonschema` reports, in its words (the real service
 * shows that text to clients, and clients and tests match on it).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { bestMatch, errorText, iterErrors, type JsonSchema } from './jsonschema-errors.ts';

export type { JsonSchema } from './jsonschema-errors.ts';

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

/** The formats Placement registers with jsonschema; any other format passes, as there. */
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
    validate = ajv.compile(schema as Record<string, unknown>);
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
