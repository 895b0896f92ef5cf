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

/** Why a requested version was refused before sending: not `X.Y`, or outside the client's range. */
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

/** How far a request got before use case 3B was detected. */
export interface UnsupportedRequestState {
  readonly method: string;
  /** The method changes state (POST, PUT, PATCH, DELETE): once sent, its effect happened. */
  readonly stateChanging: boolean;
  /**
   * False when the client found the server out before sending the request (it asks the version
   * document first for a state-changing request); true when the request itself was answered.
   */
  readonly sent: boolean;
  /** The status the server answered the request with, when it was sent. */
  readonly status?: number | undefined;
  /** The text of that answer (what a POST created, for instance), when it was sent. */
  readonly body?: string | undefined;
}

function unsupportedMessage(requested: string, endpoint: string, state: UnsupportedRequestState) {
  const start = `API version ${requested} cannot be used: the server at ${endpoint} does not support microversions`;
  if (!state.sent) {
    return (
      `${start} (its version document answered a request for ${requested} without a version ` +
      `header; it only speaks the base API). The ${state.method} request was not sent.`
    );
  }
  const base = `${start} (its response carried no version header; it only speaks the base API)`;
  if (!state.stateChanging) return base;
  return (
    `${base}. The ${state.method} request has already been processed by the server at its ` +
    `base API, not at ${requested} (status ${state.status}): check its effect before retrying.`
  );
}

/**
 * Use case 3B: the user asked for a version, but the server predates microversions (a success
 * carried no version header), so that version cannot be used. `sent` says whether the request
 * reached the server; when it did, the server handled it at its only version, and for a
 * state-changing method (`stateChanged`) that effect has happened and was not undone.
 */
export class MicroversionsUnsupportedError extends MicroversionClientError {
  readonly requested: string;
  readonly endpoint: string;
  readonly method: string;
  readonly sent: boolean;
  readonly stateChanged: boolean;
  readonly status: number | undefined;
  readonly body: string | undefined;

  constructor(
    requested: string,
    endpoint: string,
    state: UnsupportedRequestState,
    min: string,
    max: string,
  ) {
    super(unsupportedMessage(requested, endpoint, state), min, max);
    this.name = 'MicroversionsUnsupportedError';
    this.requested = requested;
    this.endpoint = endpoint;
    this.method = state.method;
    this.sent = state.sent;
    this.stateChanged = state.sent && state.stateChanging;
    this.status = state.status;
    this.body = state.body;
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

/** Where a refused request's server range came from. */
export type RangeSource = 'response' | 'version-document';

function rejectedMessage(
  requested: string,
  server: { min: string; max: string } | undefined,
  source: RangeSource,
): string {
  const start = `The server refused API version ${requested} (406 Not Acceptable)`;
  if (server === undefined) return `${start}; it did not say which versions it supports`;
  const where = source === 'version-document' ? 'its version document says ' : '';
  return `${start}; ${where}it supports ${server.min} to ${server.max}`;
}

/**
 * Use case 7B: the server refused the version the user asked for (406). Also raised when the
 * server refuses without saying what it supports (not in the answer, not in its version
 * document). A 406 at a version inside the server's range is not a refusal of that version:
 * the client hands that answer back instead.
 */
export class VersionRejectedError extends MicroversionClientError {
  readonly requested: string;
  readonly serverMin: string | undefined;
  readonly serverMax: string | undefined;
  readonly userSpecified: boolean;
  /** Where `serverMin`/`serverMax` come from: the 406 itself, or the version document. */
  readonly rangeSource: RangeSource | undefined;

  constructor(
    requested: string,
    server: { min: string; max: string } | undefined,
    userSpecified: boolean,
    min: string,
    max: string,
    source: RangeSource = 'response',
  ) {
    super(
      `${rejectedMessage(requested, server, source)}; this client supports ${min} to ${max}`,
      min,
      max,
    );
    this.name = 'VersionRejectedError';
    this.requested = requested;
    this.serverMin = server?.min;
    this.serverMax = server?.max;
    this.userSpecified = userSpecified;
    this.rangeSource = server === undefined ? undefined : source;
  }
}
