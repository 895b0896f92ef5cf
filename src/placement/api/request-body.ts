/**
 * Reading request bodies and negotiating content types as the real service does:
 * 415 for a body that is not `application/json`, 400 for malformed JSON or JSON the
 * schema refuses, 406 when `Accept` rules out JSON.
 */
import type { FastifyRequest } from 'fastify';
import { jsonTooDeep } from '../../python-compat/json-depth.ts';
import { decodeUtf8AsPython } from '../../python-compat/python-utf8.ts';
import { loneSurrogateIn, loneSurrogateMessage } from '../../service/http/lone-surrogate.ts';
import { readRequestBody } from '../../service/http/request-body.ts';
import { type JsonSchema, schemaProblem } from '../schemas/validator.ts';
import { acceptableOffers, acceptIsValid, effectiveAccept } from './accept.ts';
import { isBodyUnread } from './client-errors.ts';
import { badRequest, PlacementHttpError } from './errors.ts';
import { parsePythonJson } from './python-json.ts';

const JSON_TYPE = 'application/json';

/** PostgreSQL's words for a NUL it is given (the real service's 500 there; Baton's 400 on all). */
export const NUL_REFUSED = 'A string literal cannot contain NUL (0x00) characters.';

const texts = new WeakMap<FastifyRequest, string>();

/**
 * The body as text, read now if no one has read it (within `[oslo_middleware]
 * max_request_body_size`), decoded as Python's strict UTF-8 decoder does: invalid bytes are
 * the real service's 400 `Malformed JSON: 'utf-8' codec can't decode byte ...`.
 */
export async function bodyText(request: FastifyRequest): Promise<string> {
  const known = texts.get(request);
  if (known !== undefined) return known;
  const bytes = await readRequestBody(request, request.server.placement.config.maxRequestBodySize);
  // A body that broke while it was read (a bad chunk) is no body (client-errors.ts).
  const decoded = isBodyUnread(request.raw) ? { text: '' } : decodeUtf8AsPython(bytes);
  if ('error' in decoded) throw badRequest(`Malformed JSON: ${decoded.error}`);
  texts.set(request, decoded.text);
  return decoded.text;
}

/** The body's text once `bodyText` has read it ('' before). */
export function bodyTextRead(request: FastifyRequest): string {
  return texts.get(request) ?? '';
}

/** True when a string anywhere in `value` (keys included) holds a NUL. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsNul);
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
}

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

/**
 * The body parsed and validated against `schema`; the route must be a PUT or POST. Nesting
 * past MAX_JSON_DEPTH is Python's RecursionError worded as a 400 (the real service's 500),
 * and a NUL in any string a 400 on every database (docs/security.md).
 */
export async function readJsonBody<T = unknown>(
  request: FastifyRequest,
  schema: JsonSchema,
): Promise<T> {
  requireJsonContent(request);
  const raw = await bodyText(request);
  const tooDeep = jsonTooDeep(raw);
  if (tooDeep !== undefined) throw badRequest(`Malformed JSON: ${tooDeep}`);
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
  if (holdsNul(data)) throw badRequest(NUL_REFUSED);
  // Only an escape can make one (the text was decoded strictly): look when there is one.
  const lone = raw.includes('\\u') ? loneSurrogateIn(data) : undefined;
  if (lone !== undefined) throw badRequest(`Malformed JSON: ${loneSurrogateMessage(lone)}`);
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
