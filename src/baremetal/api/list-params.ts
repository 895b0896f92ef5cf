/**
 * The paging and field parameters every list takes, checked as the real API checks them:
 * `limit` (positive; at most `[api] max_limit`), `sort_dir` (asc or desc), `sort_key` (not one
 * the resource refuses; the store refuses what is not a column), `fields` (from 1.8) and
 * `detail` (from 1.43, not with `fields`).
 */
import type { FastifyRequest } from 'fastify';
import { InvalidParameterError } from '../common/errors.ts';
import { servicesOf } from './context.ts';
import { ClientSideError, NotAcceptableError } from './errors.ts';
import { FEATURES } from './features.ts';
import { pyStr } from './params.ts';

/** validate_limit: none is the maximum; zero or less is refused. */
export function checkLimit(request: FastifyRequest, limit: number | undefined): number {
  const max = servicesOf(request).settings.maxLimit;
  if (limit === undefined) return max;
  if (limit <= 0) throw new ClientSideError('Limit must be positive');
  return Math.min(max, limit);
}

export function checkSortDir(sortDir: string): 'asc' | 'desc' {
  if (sortDir !== 'asc' && sortDir !== 'desc') {
    throw new ClientSideError(
      `Invalid sort direction: ${sortDir}. Acceptable values are 'asc' or 'desc'`,
    );
  }
  return sortDir;
}

/** A sort key the resource refuses outright (a JSON column). */
export function checkSortKey(sortKey: string, refused: readonly string[]): void {
  if (refused.includes(sortKey)) {
    throw new InvalidParameterError(
      `The sort_key value ${sortKey} is an invalid field for sorting`,
      'sort_key',
    );
  }
}

/** check_allow_specify_fields: `fields` from 1.8. */
export function checkFieldsAllowed(request: FastifyRequest, fields: unknown): void {
  if (fields !== undefined && !request.microversion.atLeast(FEATURES.fieldsSelector)) {
    throw new NotAcceptableError();
  }
}

/**
 * get_request_return_fields: `detail` needs 1.43 (or the resource's own gate) and excludes
 * `fields`; with neither, the resource's default fields.
 */
export function returnFields(
  request: FastifyRequest,
  fields: readonly string[] | undefined,
  detail: boolean | undefined,
  defaults: readonly string[],
  detailAllowed = request.microversion.atLeast(FEATURES.detailQuery),
): readonly string[] | undefined {
  if (detail !== undefined && !detailAllowed) {
    throw new InvalidParameterError(
      `Invalid query parameter ?detail=${pyStr(detail === true ? 'True' : 'False')} received.`,
    );
  }
  if (fields !== undefined && detail) {
    throw new InvalidParameterError('Can not specify ?detail=True and fields in the same request.');
  }
  if (fields === undefined && !detail) return defaults;
  return fields;
}
