/**
 * Reading request bodies and negotiating content types as the real service does:
 * 415 for a body that is not `application/json`, 400 for malformed JSON or JSON the
 * schema refuses, 406 when `Accept` rules out JSON.
 */
import type { FastifyRequest } from 'fastify';
import { type JsonSchema, schemaProblem } from '../schemas/validator.ts';
import { acceptableOffers, acceptIsValid, effectiveAccept } from './accept.ts';
import { badRequest, PlacementHttpError } from './errors.ts';
import { parsePythonJson } from './python-json.ts';

const JSON_TYPE = 'application/json';

/**
 * The request's media type as WebOb reads it (everything before the first `;`, verbatim: no
 * trimming, no case folding), and the Content-Type the real service's 415 template quotes
 * (`None` stands in for a missing type, the parameters kept).
 */
export function webobContentType(header: string | undefined): { media: string; environ: string } {
  const raw = header ?? '';
  const semicolon = raw.indexOf(';');
  const media = semicolon === -1 ? raw : raw.slice(0, semicolon);
  if (media !== '') return { media, environ: raw };
  return { media: 'None', environ: semicolon === -1 ? 'None' : `None${raw.slice(semicolon)}` };
}

/**
 * 415 unless the body is declared JSON (exactly `application/json`, as WebOb compares). The
 * real service checks this before policy, so handlers call it first when they authorize
 * before reading the body.
 */
export function requireJsonContent(request: FastifyRequest): void {
  const { media } = webobContentType(request.headers['content-type']);
  if (media !== JSON_TYPE) {
    throw new PlacementHttpError(415, `The media type ${media} is not supported, use ${JSON_TYPE}`);
  }
}

/** The body parsed and validated against `schema`; the route must be a PUT or POST. */
export function readJsonBody<T = unknown>(request: FastifyRequest, schema: JsonSchema): T {
  requireJsonContent(request);
  const raw = typeof request.body === 'string' ? request.body : '';
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    // Python's reading decides, and words the refusal, as in the real service.
    const parsed = parsePythonJson(raw);
    if ('error' in parsed) throw badRequest(`Malformed JSON: ${parsed.error}`);
    data = parsed.value;
  }
  const problem = schemaProblem(schema, data);
  if (problem !== undefined) throw badRequest(`JSON does not validate: ${problem}`);
  return data as T;
}

/**
 * 406 unless the client accepts JSON. A missing, empty, `*\/*` or invalid Accept header
 * accepts anything, as in the real service.
 */
export function checkAcceptsJson(request: FastifyRequest): void {
  const accept = effectiveAccept(request.headers.accept);
  if (!acceptIsValid(accept)) return;
  if (acceptableOffers(accept, [JSON_TYPE]).length === 0) {
    throw new PlacementHttpError(406, `Only ${JSON_TYPE} is provided`);
  }
}
