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
export { CUSTOM_TRAIT_PREFIX, STANDARD_TRAITS } from './os-traits.ts';
export { pythonInt, pythonStrip } from './python-int.ts';
export { type PythonJsonResult, parsePythonJson } from './python-json.ts';
export { pythonJsonDumps } from './python-json-dumps.ts';
export { pythonPformat, pythonRepr, pythonStr } from './python-repr.ts';
