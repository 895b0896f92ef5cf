/**
 * The error a handler throws to answer in Placement's format, and the stable error codes
 * of the real service (`placement/errors.py`: once set, never changed or reused).
 */
export const ErrorCodes = {
  DEFAULT: 'placement.undefined_code',
  INVENTORY_INUSE: 'placement.inventory.inuse',
  CONCURRENT_UPDATE: 'placement.concurrent_update',
  DUPLICATE_NAME: 'placement.duplicate_name',
  PROVIDER_IN_USE: 'placement.resource_provider.inuse',
  PROVIDER_CANNOT_DELETE_PARENT: 'placement.resource_provider.cannot_delete_parent',
  RESOURCE_PROVIDER_NOT_FOUND: 'placement.resource_provider.not_found',
  ILLEGAL_DUPLICATE_QUERYPARAM: 'placement.query.duplicate_key',
  QUERYPARAM_BAD_VALUE: 'placement.query.bad_value',
  QUERYPARAM_MISSING_VALUE: 'placement.query.missing_value',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export interface HttpErrorOptions {
  readonly code?: ErrorCode;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The real service raises this error past its handler (a lookup's NotFound, a policy
   * refusal, an unknown URL): its microversion layer then adds the version header but not
   * `Vary`, so neither does Baton.
   */
  readonly escapesHandler?: boolean;
  /**
   * Raised by the real service's auth layer, which sits outside Placement's error formatter:
   * the JSON body is WebOb's default `{"message", "code", "title"}`, and no version was agreed.
   */
  readonly outsidePlacement?: boolean;
}

/**
 * An error answered to the client: status, the specific message (worded into the body's
 * `detail` after the status's generic sentence), the error code (shown from 1.23).
 */
export class PlacementHttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly escapesHandler: boolean;
  readonly outsidePlacement: boolean;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message);
    this.name = 'PlacementHttpError';
    this.status = status;
    this.code = options.code;
    this.headers = options.headers ?? {};
    this.escapesHandler = options.escapesHandler ?? false;
    this.outsidePlacement = options.outsidePlacement ?? false;
  }
}

export const badRequest = (message: string, options?: HttpErrorOptions) =>
  new PlacementHttpError(400, message, options);
export const notFound = (message: string, options?: HttpErrorOptions) =>
  new PlacementHttpError(404, message, options);
export const conflict = (message: string, options?: HttpErrorOptions) =>
  new PlacementHttpError(409, message, options);
/** A policy refusal: the real service raises it past the handler. */
export const forbidden = (message: string) =>
  new PlacementHttpError(403, message, { escapesHandler: true });
