/**
 * The request body as JSON, read once per request, as Python's json module reads it (the real
 * service decodes a body whatever its content type says, `request.json`); an empty body is no
 * value. A body that is not JSON: the real service lets the decoder's ValueError through as a
 * 500 with its message; Baton answers 400 with the same message (docs/baremetal.md).
 */
import type { FastifyRequest } from 'fastify';
import { parsePythonJson } from '../../python-compat/index.ts';

export type JsonBody = { readonly value: unknown } | { readonly error: string };

const cache = new WeakMap<FastifyRequest, JsonBody>();

export function readJsonBody(request: FastifyRequest): JsonBody {
  const known = cache.get(request);
  if (known !== undefined) return known;
  const text = typeof request.body === 'string' ? request.body : '';
  let body: JsonBody;
  if (text === '') body = { value: undefined };
  else {
    // JSON.parse first (fast); Python's reading (NaN, Infinity, its error texts) when it refuses.
    try {
      body = { value: JSON.parse(text) };
    } catch {
      body = parsePythonJson(text);
    }
  }
  cache.set(request, body);
  return body;
}
