/**
 * RPC API versions (`X.Y`) and the two questions asked of them (the rolling-upgrade doc,
 * oslo.messaging's `version_is_compatible`): may a client capped at `cap`
 * send `version`, and does an endpoint serving `served` accept `requested`.
 * Both are the same rule: same major, minor at most the other's.
 */
import { compareObjectVersions, parseObjectVersion } from '../objects/version.ts';

const RPC_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Whether a value is an `X.Y` RPC version. */
export function isRpcVersion(version: unknown): version is string {
  return typeof version === 'string' && RPC_VERSION.test(version);
}

export function assertRpcVersion(version: string, what: string): void {
  if (!isRpcVersion(version))
    throw new RangeError(`${what} '${version}' is not an RPC version X.Y`);
}

/** Same major, and `version` no newer than `limit`. */
export function rpcVersionWithin(version: string, limit: string): boolean {
  const a = parseObjectVersion(version);
  const b = parseObjectVersion(limit);
  if (a === null || b === null || a[0] !== b[0]) return false;
  return compareObjectVersions(version, limit) <= 0;
}

/** Negative, zero or positive as a < b, a = b, a > b. */
export function compareRpcVersions(a: string, b: string): number {
  return compareObjectVersions(a, b);
}
