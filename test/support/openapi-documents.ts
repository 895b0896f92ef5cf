/**
 * Checks on generated OpenAPI documents: validity against the OpenAPI 3.1 schema
 * (@seriousme/openapi-schema-validator), and a response body checked against what the
 * document says of it (Ajv, JSON Schema 2020-12, the document's shared schemas reachable).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchemaObject } from '../../src/microversion/index.ts';

const validator = new Validator();

/** The OpenAPI 3.1 schema's complaints about a document; empty when it is valid. */
export async function openApiProblems(document: JsonSchemaObject): Promise<string[]> {
  const result = await validator.validate(document);
  if (result.valid) return [];
  return (result.errors as unknown as Record<string, unknown>[]).map((error) =>
    JSON.stringify(error),
  );
}

// Formats are the services' business (Placement's uuid is oslo's, laxer than RFC 4122).
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/** The schema a document gives for an answer; undefined when it gives none. */
export function responseSchema(
  document: JsonSchemaObject,
  path: string,
  method: string,
  status: number,
): JsonSchemaObject | undefined {
  const response = document.paths?.[path]?.[method]?.responses?.[String(status)];
  if (response === undefined) {
    throw new Error(`the document has no ${status} answer for ${method} ${path}`);
  }
  return response.content?.['application/json']?.schema;
}

/**
 * Why `body` does not match the document's schema for that answer (undefined: it matches).
 * The operation and status must be in the document: an answer it does not list is a failure.
 */
export function bodyProblem(
  document: JsonSchemaObject,
  request: { readonly path: string; readonly method: string; readonly status: number },
  body: unknown,
): string | undefined {
  const schema = responseSchema(document, request.path, request.method, request.status);
  if (schema === undefined) {
    return body === undefined || body === '' ? undefined : 'a body where the document has none';
  }
  // `#/components/…` references resolve against this root, which carries the components.
  const validate = ajv.compile({ ...schema, components: document.components });
  if (validate(body)) return undefined;
  return ajv.errorsText(validate.errors);
}

/** Why an error body does not match the document's error schema (undefined: it matches). */
export function errorBodyProblem(document: JsonSchemaObject, body: unknown): string | undefined {
  const validate = ajv.compile({
    $ref: '#/components/schemas/Error',
    components: document.components,
  });
  if (validate(body)) return undefined;
  return ajv.errorsText(validate.errors);
}
