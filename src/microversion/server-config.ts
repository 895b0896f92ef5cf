import type { HeaderStyle } from './header-style.ts';
import type { VersionServerError } from './server-errors.ts';

/** What a service's error formatter is given to build its wire-format error body. */
export interface ErrorReport {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** Effective supported range (max lowered by the pin). */
  readonly min: string;
  readonly max: string;
  /** Version the request was being answered at, if one had been agreed (404 from a window). */
  readonly version: string | undefined;
  readonly requestId: string | undefined;
  /** The error itself, for formatters that want its fields. */
  readonly error: VersionServerError;
}

/** Returns the JSON body for an error; each service keeps its own format (Placement, Ironic). */
export type ErrorFormatter = (report: ErrorReport) => unknown;

/** What a VersionNegotiator serves: the service, its range and pin, its headers and its errors. */
export interface MicroversionServerConfig {
  /** Service type as in the catalog and the standard header: `placement`, `baremetal`. */
  readonly serviceType: string;
  /** Oldest supported version; also the default when a request names none. */
  readonly min: string;
  /** Newest version the code implements (last element of the service's version list). */
  readonly max: string;
  /** Max lowered by a release pin during a rolling upgrade; effective max = min(max, pinnedMax). */
  readonly pinnedMax?: string | undefined;
  readonly headers: HeaderStyle;
  /** Status for a header that is not `X.Y`/`latest`: Placement answers 400, Ironic 406. */
  readonly malformedStatus: 400 | 406;
  readonly formatError: ErrorFormatter;
}

/** Raised at startup when a server config cannot work (bad version text, min above max...). */
export class ServerConfigError extends Error {
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`Invalid microversion server config, ${field}: ${problem}`);
    this.name = 'ServerConfigError';
    this.field = field;
  }
}
