/**
 * The request body as JSON, read once per request, as Python's json module reads it (the real
 * service decodes a body whatever its content type says, `request.json`); an empty body is no
 * value. A body that is not JSON: the real service lets the decoder's ValueError through as a
 * 500 with its message; Baton answers 400 with the same message (docs/baremetal.md).
 */
import type { FastifyRequest } from 'fastify';
import { parsePythonJson } from '../../python-compat/index.ts';
import { jsonTooDeep } from '../../python-compat/json-depth.ts';
import { decodeUtf8AsPython } from '../../python-compat/python-utf8.ts';
import { loneSurrogateIn, loneSurrogateMessage } from '../../service/http/lone-surrogate.ts';
import { ClientSideError, HttpAbort } from './errors.ts';

export type JsonBody = { readonly value: unknown } | { readonly error: string };

const cache = new WeakMap<FastifyRequest, JsonBody>();

/**
 * The body's text. Bytes that are not UTF-8 are the real service's WebOb 400 with an empty
 * description (probed on Ironic 21.4.4: docs/security.md), whatever route reads them.
 */
export function bodyText(request: FastifyRequest): string {
  const body = request.body;
  if (typeof body === 'string') return body;
  if (!Buffer.isBuffer(body)) return '';
  const decoded = decodeUtf8AsPython(body);
  if ('error' in decoded) throw new HttpAbort(400, '');
  return decoded.text;
}

export function readJsonBody(request: FastifyRequest): JsonBody {
  const known = cache.get(request);
  if (known !== undefined) return known;
  const text = bodyText(request);
  let body: JsonBody;
  // Nesting Python cannot decode (its RecursionError, a 500 there): refused before any
  // recursive code walks it, in Python's words (docs/security.md).
  const tooDeep = text === '' ? undefined : jsonTooDeep(text);
  if (text === '') body = { value: undefined };
  else if (tooDeep !== undefined) body = { error: tooDeep };
  else {
    // JSON.parse first (fast); Python's reading (NaN, Infinity, its error texts) when it refuses.
    try {
      body = { value: JSON.parse(text) };
    } catch {
      body = parsePythonJson(text);
    }
  }
  // A lone surrogate (only a `\u` escape makes one): refused, never stored corrupted.
  const lone = 'value' in body && text.includes('\\u') ? loneSurrogateIn(body.value) : undefined;
  if (lone !== undefined) throw new ClientSideError(loneSurrogateMessage(lone));
  cache.set(request, body);
  return body;
}
