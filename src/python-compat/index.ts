/**
 * What the services compatible with Python ones need to answer in Python's words: repr and
 * pprint of JSON values, and JSON Schema errors chosen and worded as Python's jsonschema does.
 */
export {
  bestMatch,
  errorText,
  isUuidLike,
  type JsonSchema,
  type SchemaError,
  type SchemaFailure,
  schemaFailure,
  schemaProblem,
} from './json-schema.ts';
export { pythonPformat, pythonRepr } from './python-repr.ts';
