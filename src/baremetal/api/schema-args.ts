/**
 * JSON Schema checks of request values as ironic.common.args words them:
 * `Schema error for <name>: <jsonschema's message>`, and `. Possible root cause: <message>`
 * when the error came from an `anyOf` (jsonschema's best match of its context).
 */
import {
  bestMatch,
  type JsonSchema,
  type SchemaError,
  schemaFailure,
} from '../../python-compat/index.ts';
import { InvalidParameterError } from '../common/errors.ts';
import type { Validator } from './params.ts';

/** The root cause Ironic appends: the best match down the error's context. */
function rootCause(error: SchemaError): string | undefined {
  let cause: string | undefined;
  let current = error;
  while (current.context.length > 0) {
    const next = bestMatch(current.context);
    if (next === undefined) break;
    current = next;
    cause = current.message;
  }
  return cause;
}

/** jsonschema.validate's message for `value`, or undefined when valid. */
export function schemaMessage(schema: JsonSchema, value: unknown): string | undefined {
  const failure = schemaFailure(schema, value);
  if (failure === undefined) return undefined;
  return failure.explained ? failure.error.message : failure.message;
}

/**
 * args.schema(schema): a validator raising "Schema error for <name>: …". None passes, as in
 * the real one, unless `noneIsValid` is false: a whole body of `null`, which the real handlers
 * then fail on with a 500, is refused as the schema refuses it.
 */
export function schemaArg(
  schema: JsonSchema,
  options: { readonly noneIsValid?: boolean } = {},
): Validator {
  const noneIsValid = options.noneIsValid ?? true;
  return (name, value) => {
    if (value === undefined || (value === null && noneIsValid)) return value;
    const failure = schemaFailure(schema, value);
    if (failure === undefined) return value;
    if (!failure.explained) {
      throw new InvalidParameterError(`Schema error for ${name}: ${failure.message}`, name);
    }
    let message = `Schema error for ${name}: ${failure.error.message}`;
    const cause = rootCause(failure.error);
    if (cause !== undefined) message += `. Possible root cause: ${cause}`;
    throw new InvalidParameterError(message, name);
  };
}

/** args.dict_valid: validators applied to the keys present (a non-dict is refused). */
export function dictValid(validators: Readonly<Record<string, Validator>>): Validator {
  return (name, value) => {
    if (value === null || value === undefined) return value;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidParameterError(
        `Expected types <class 'dict'> for ${name}: ${String(value)}`,
      );
    }
    const out = { ...(value as Record<string, unknown>) };
    for (const [key, check] of Object.entries(validators)) {
      if (Object.hasOwn(out, key)) out[key] = check(key, out[key]);
    }
    return out;
  };
}

/** The JSON PATCH document's schema (args.patch): add, replace and remove on simple paths. */
export const PATCH_SCHEMA: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      path: { type: 'string', pattern: '^(/[\\w-]+)+$' },
      op: { type: 'string', enum: ['add', 'replace', 'remove'] },
      value: {},
    },
    additionalProperties: false,
    required: ['op', 'path'],
  },
};

/** The JSON PATCH body argument (a `null` body refused as not an array). */
export const PATCH_ARG: Validator = schemaArg(PATCH_SCHEMA, { noneIsValid: false });
