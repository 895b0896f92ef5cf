/**
 * The request body as JSON, read once per request. The real service decodes a body whatever
 * its content type says (`request.json`); an empty body is no value.
 *
 * A body that is not JSON: the real service lets Python's ValueError through as a 500 with
 * the decoder's message; Baton answers 400 with a message of the same kind
 * (docs/baremetal.md, "API tier").
 */
import type { FastifyRequest } from 'fastify';

export type JsonBody = { readonly value: unknown } | { readonly error: string };

const cache = new WeakMap<FastifyRequest, JsonBody>();

/** Where a JSON.parse failure is, as Python's decoder reports it (line, column, char). */
function decodeError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  const at = position ? Number(position[1]) : text.trim() === '' ? 0 : text.length;
  const before = [...text.slice(0, at)];
  const line = before.filter((c) => c === '\n').length + 1;
  const column = before.length - before.lastIndexOf('\n');
  const what = at >= text.length ? 'Expecting value' : 'Invalid JSON';
  return `${what}: line ${line} column ${column} (char ${before.length})`;
}

export function readJsonBody(request: FastifyRequest): JsonBody {
  const known = cache.get(request);
  if (known !== undefined) return known;
  const text = typeof request.body === 'string' ? request.body : '';
  let body: JsonBody;
  if (text === '') body = { value: undefined };
  else {
    try {
      body = { value: JSON.parse(text) };
    } catch (error) {
      body = { error: decodeError(text, error) };
    }
  }
  cache.set(request, body);
  return body;
}
