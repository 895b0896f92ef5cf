import { VERSION_FORMAT } from './version.ts';

/** Base of every error the negotiating client raises; all carry the client's own range. */
export abstract class MicroversionClientError extends Error {
  readonly clientMin: string;
  readonly clientMax: string;

  constructor(message: string, clientMin: string, clientMax: string) {
    super(message);
    this.clientMin = clientMin;
    this.clientMax = clientMax;
  }
}

export type InvalidRequestReason = 'format' | 'outside-client-range';

/** Use case 4: the user's version is not `X.Y`/`latest`, or not one this client knows. */
export class InvalidRequestedVersionError extends MicroversionClientError {
  readonly requested: string;
  readonly reason: InvalidRequestReason;

  constructor(
    requested: string,
    reason: InvalidRequestReason,
    clientMin: string,
    clientMax: string,
  ) {
    super(
      reason === 'format'
        ? `Invalid API version ${JSON.stringify(requested)}: expected "${VERSION_FORMAT}" (two ` +
            `integers separated by a dot, e.g. "${clientMax}") or "latest"`
        : `API version ${requested} is not supported by this client, which supports ${clientMin} to ${clientMax}`,
      clientMin,
      clientMax,
    );
    this.name = 'InvalidRequestedVersionError';
    this.requested = requested;
    this.reason = reason;
  }
}

/**
 * Use case 3B: the user asked for a version, but the server predates microversions (its answer
 * carried no version header), so that version cannot be used. The request did reach the server,
 * which handled it at its only version; `status` is what it answered.
 */
export class MicroversionsUnsupportedError extends MicroversionClientError {
  readonly requested: string;
  readonly endpoint: string;
  readonly status: number;

  constructor(requested: string, endpoint: string, status: number, min: string, max: string) {
    super(
      `API version ${requested} cannot be used: the server at ${endpoint} does not support ` +
        'microversions (its response carried no version header; it only speaks the base API)',
      min,
      max,
    );
    this.name = 'MicroversionsUnsupportedError';
    this.requested = requested;
    this.endpoint = endpoint;
    this.status = status;
  }
}

/** Use cases 5 and 6: the server's range and the client's range do not meet. */
export class NoCommonVersionError extends MicroversionClientError {
  readonly requested: string;
  readonly serverMin: string;
  readonly serverMax: string;

  constructor(requested: string, server: { min: string; max: string }, min: string, max: string) {
    super(
      `No API version in common: the server supports ${server.min} to ${server.max}, ` +
        `this client supports ${min} to ${max} (requested ${requested})`,
      min,
      max,
    );
    this.name = 'NoCommonVersionError';
    this.requested = requested;
    this.serverMin = server.min;
    this.serverMax = server.max;
  }
}

/**
 * Use case 7B: the server refused the version the user asked for (406). Also raised when the
 * server refuses without saying what it supports, or refuses a version inside its own range.
 */
export class VersionRejectedError extends MicroversionClientError {
  readonly requested: string;
  readonly serverMin: string | undefined;
  readonly serverMax: string | undefined;
  readonly userSpecified: boolean;

  constructor(
    requested: string,
    server: { min: string; max: string } | undefined,
    userSpecified: boolean,
    min: string,
    max: string,
  ) {
    super(
      `The server refused API version ${requested} (406 Not Acceptable); ` +
        (server === undefined
          ? 'it did not say which versions it supports'
          : `it supports ${server.min} to ${server.max}`) +
        `; this client supports ${min} to ${max}`,
      min,
      max,
    );
    this.name = 'VersionRejectedError';
    this.requested = requested;
    this.serverMin = server?.min;
    this.serverMax = server?.max;
    this.userSpecified = userSpecified;
  }
}
