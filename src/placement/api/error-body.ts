/**
 * Placement's JSON error body (API-SIG errors guideline), as its formatter shapes WebOb's:
 * `{"errors": [{"status", "title", "detail", "code"?, "request_id"?, "max_version"?, "min_version"?}]}`.
 * `code` appears from 1.23 (when a version was agreed); the version range only on a 406
 * answered before one was. Pure.
 */
import type { JsonFormatter } from './webob-error.ts';

export const DEFAULT_ERROR_CODE = 'placement.undefined_code';

export interface PlacementErrorContext {
  /** The error code, shown from 1.23. */
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  /** Whether the agreed version is 1.23 or later; undefined when none was agreed. */
  readonly showsCode: boolean | undefined;
  /** The supported range, on a 406 from version negotiation. */
  readonly range?: { readonly min: string; readonly max: string } | undefined;
}

export function placementJson(context: PlacementErrorContext): JsonFormatter {
  return (status, title, detail) => {
    const error: Record<string, unknown> = { status, title, detail };
    if (context.showsCode === true) error.code = context.code ?? DEFAULT_ERROR_CODE;
    if (context.requestId !== undefined) error.request_id = context.requestId;
    if (context.range !== undefined) {
      error.max_version = context.range.max;
      error.min_version = context.range.min;
    }
    return { errors: [error] };
  };
}
