/** Placement's JSON Schema validation is the shared Python-compatible one (src/python-compat). */
export {
  isUuidLike,
  type JsonSchema,
  schemaProblem,
} from '../../python-compat/json-schema.ts';
