import { formatVersion, VERSION_FORMAT, type Version } from './version.ts';

/**
 * Errors the version layer answers itself. Each carries its HTTP status and title; the body is
 * shaped by the service's error formatter, at one edge.
 */
export abstract class VersionServerError extends Error {
  abstract readonly status: number;
  abstract readonly title: string;
  /** Effective supported range when the error happened (max already lowered by the pin). */
  readonly min: string;
  readonly max: string;

  constructor(message: string, min: string, max: string) {
    super(message);
    this.min = min;
    this.max = max;
  }
}

/** The header is present but its value is not `X.Y` or `latest`. */
export class MalformedVersionError extends VersionServerError {
  readonly status: 400 | 406;
  readonly title: string;
  readonly header: string;
  readonly value: string;
  readonly expected = VERSION_FORMAT;

  constructor(header: string, value: string, status: 400 | 406, min: string, max: string) {
    super(
      `Invalid microversion: invalid version string: ${value} in the ${header} header. ` +
        `Expected "${VERSION_FORMAT}" (two integers, for example "${max}") or "latest". ` +
        `The supported version range is: [${min}, ${max}].`,
      min,
      max,
    );
    this.name = 'MalformedVersionError';
    this.status = status;
    this.title = status === 400 ? 'Bad Request' : 'Not Acceptable';
    this.header = header;
    this.value = value;
  }
}

/** A well-formed version outside the effective range: always 406 Not Acceptable. */
export class VersionNotAcceptableError extends VersionServerError {
  readonly status = 406;
  readonly title = 'Not Acceptable';
  readonly header: string;
  readonly requested: Version;

  constructor(header: string, requested: Version, min: string, max: string) {
    const text = formatVersion(requested);
    super(
      `Invalid microversion: Unacceptable version header: ${text}. Version ${text} is not ` +
        `supported by this service. The supported version range is: [${min}, ${max}].`,
      min,
      max,
    );
    this.name = 'VersionNotAcceptableError';
    this.header = header;
    this.requested = requested;
  }
}

/**
 * No handler window of the route covers the request's version: the endpoint does not exist
 * (yet, or any more) at that version, so it is answered like any unknown URL.
 */
export class NoHandlerForVersionError extends VersionServerError {
  readonly status = 404;
  readonly title = 'Not Found';
  readonly version: Version;

  constructor(version: Version, min: string, max: string) {
    super(
      `The resource could not be found. It is not available at microversion ${formatVersion(version)}.`,
      min,
      max,
    );
    this.name = 'NoHandlerForVersionError';
    this.version = version;
  }
}
