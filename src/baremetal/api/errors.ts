/**
 * The API tier's own refusals, beside the service's catalogue (../errors.ts), in the two
 * shapes the real Ironic answers with:
 *
 * - a fault, raised inside a handler (`ClientSideError`, `NotAcceptableError`, and every
 *   catalogue error): the handler's version headers stay, the body holds
 *   `{"faultcode", "faultstring", "debuginfo"}`;
 * - a WebOb HTTP error (`HttpAbort`), raised while routing or by `pecan.abort`: the answer
 *   has no version headers and the body holds `{"code", "title", "description"}`.
 */
import { IronicError } from '../common/errors.ts';

/** Ironic's ClientSideError: an API refusal worded by the API, 400 unless said otherwise. */
export class ClientSideError extends IronicError {
  override name = 'ClientSideError';
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.status = status;
  }
  override get code() {
    return this.status;
  }
}

/** Ironic's NotAcceptable (406): a feature asked for below the version that brought it. */
export class NotAcceptableError extends ClientSideError {
  override name = 'NotAcceptableError';
  constructor(message = 'Request not acceptable.') {
    super(message, 406);
  }
}

/** The real NotAcceptable naming the version a filter or parameter needs. */
export function minimalVersionRequired(version: string): NotAcceptableError {
  return new NotAcceptableError(
    `Request not acceptable. The minimal required API version should be ${version}`,
  );
}

/** A WebOb HTTP error (pecan.abort, the router): no version headers, WebOb's body. */
export class HttpAbort extends Error {
  override name = 'HttpAbort';
  readonly status: number;
  readonly description: string;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, description = '', headers: Readonly<Record<string, string>> = {}) {
    super(description || `HTTP ${status}`);
    this.status = status;
    this.description = description;
    this.headers = headers;
  }
}

/**
 * An error answered with another status than its own, where the real handler sets `e.code`
 * before re-raising (NoValidHost becomes 400 on node create, ChassisNotFound 400 on a node).
 */
export class Restatused extends Error {
  override name = 'Restatused';
  readonly status: number;
  readonly original: Error;
  constructor(original: Error, status: number) {
    super(original.message);
    this.status = status;
    this.original = original;
  }
}

/** Runs `work`; an error of one of `types` is answered with `status` instead. */
export async function withStatus<T>(
  status: number,
  types: readonly (abstract new (...args: never[]) => Error)[],
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (types.some((type) => error instanceof type)) throw new Restatused(error as Error, status);
    throw error;
  }
}
