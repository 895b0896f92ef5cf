/**
 * Which errors a conductor's reply may carry that the API rebuilds as themselves: every class
 * of the service's catalogue, by name. Anything else arrives as the RPC layer's RemoteError,
 * which the API answers as a 500 (a bug to fix here, not a user's mistake).
 */
import type { RemoteErrorTypes } from '../../rpc/index.ts';
import * as catalogue from '../common/errors.ts';
import { IronicError, rebuildIronicError } from '../common/ironic-error.ts';

type ErrorClass = abstract new (...args: never[]) => IronicError;

function isErrorClass(value: unknown): value is ErrorClass {
  return (
    typeof value === 'function' && (value === IronicError || value.prototype instanceof IronicError)
  );
}

/** The catalogue's classes by the name an instance carries (its `name`, e.g. NodeLockedError). */
export const BAREMETAL_ERROR_CLASSES: Readonly<Record<string, ErrorClass>> = Object.fromEntries(
  Object.entries(catalogue as Record<string, unknown>)
    .filter((entry): entry is [string, ErrorClass] => isErrorClass(entry[1]))
    .map(([name, type]) => [name, type]),
);

export const BAREMETAL_REMOTE_ERRORS: RemoteErrorTypes = Object.fromEntries(
  Object.entries(BAREMETAL_ERROR_CLASSES).map(([name, type]) => [
    name,
    (message: string, data: Record<string, unknown>) =>
      rebuildIronicError(type, name, message, data),
  ]),
);
