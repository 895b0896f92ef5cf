/** Query-string access with the real service's multi-value semantics and its schema check. */
import type { FastifyRequest } from 'fastify';
import { type JsonSchema, schemaProblem } from '../schemas/validator.ts';
import { badRequest } from './errors.ts';
import { undecodableQuery } from './query-bytes.ts';

type RawQuery = Record<string, string | string[] | undefined>;

/** Every value given for `name`, in order (`?a=1&a=2` → ['1', '2']). */
export function queryValues(request: FastifyRequest, name: string): string[] {
  const raw = (request.query as RawQuery)[name];
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** The last value given for `name` (WebOb's `req.GET[name]`), or undefined. */
export function queryValue(request: FastifyRequest, name: string): string | undefined {
  const values = queryValues(request, name);
  return values[values.length - 1];
}

/**
 * Validates the query as the real service does: a dict of the LAST value of each key
 * checked against a JSON schema; 400 `Invalid query string parameters: ...` when refused.
 */
export function validateQuery(request: FastifyRequest, schema: JsonSchema): void {
  const undecodable = undecodableQuery(request.raw.url ?? '');
  if (undecodable !== undefined) {
    throw badRequest(`Invalid query string parameters: ${undecodable}`);
  }
  const flat: Record<string, string> = {};
  for (const [key, raw] of Object.entries(request.query as RawQuery)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) flat[key] = value;
  }
  const problem = schemaProblem(schema, flat);
  if (problem !== undefined) throw badRequest(`Invalid query string parameters: ${problem}`);
}
