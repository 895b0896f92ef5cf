import { compareVersions, type Version } from './version.ts';

/** A response header, as name and value. */
export type ResponseHeader = readonly [name: string, value: string];

/**
 * The version a request is answered at, with its response headers precomputed. One instance per
 * version, shared by every request at that version, so resolving allocates nothing.
 */
export class ResolvedVersion {
  readonly version: Version;
  /** Canonical `X.Y`. */
  readonly text: string;
  /** Version header (and min/max where the style has them), names lower-cased; no `Vary`. */
  readonly headers: readonly ResponseHeader[];

  constructor(version: Version, text: string, headers: readonly ResponseHeader[]) {
    this.version = version;
    this.text = text;
    this.headers = headers;
  }

  /** `version >= other`: the usual question a handler asks ("has field X appeared yet?"). */
  atLeast(other: Version): boolean {
    return compareVersions(this.version, other) >= 0;
  }

  /** `min <= version <= max`, `max` open when omitted. */
  within(min: Version, max?: Version): boolean {
    return (
      compareVersions(this.version, min) >= 0 &&
      (max === undefined || compareVersions(this.version, max) <= 0)
    );
  }
}
