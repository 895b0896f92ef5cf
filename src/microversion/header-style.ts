/** The standard header of the API-SIG guideline: `OpenStack-API-Version: <service-type> X.Y`. */
export const STANDARD_HEADER = 'OpenStack-API-Version';

/**
 * Which version headers a service (or a client of it) speaks.
 *
 * - `new`: only `OpenStack-API-Version: <service> X.Y`, read and answered (Placement).
 * - `legacy`: only the service's own header, e.g. `X-OpenStack-Ironic-API-Version: X.Y`.
 * - `both`: the standard header is read first, the legacy one when the standard header names no
 *   entry for this service (microversion_parse's rule, and Ironic's since Dalmatian); answers use
 *   the legacy name, which every client of such a service already reads.
 */
export type HeaderMode = 'new' | 'legacy' | 'both';

/** Which version headers a service reads and answers with. */
export interface HeaderStyle {
  readonly mode: HeaderMode;
  /** Required for `legacy` and `both`: the service's own version header. */
  readonly legacyName?: string;
  /** Response header carrying the minimum supported version, if the service sends one. */
  readonly minimumName?: string;
  /** Response header carrying the maximum supported version, if the service sends one. */
  readonly maximumName?: string;
}

/** A style with names checked and lower-cased once, for lookups in Node's lower-cased headers. */
export interface CompiledHeaderStyle {
  readonly mode: HeaderMode;
  readonly readsStandard: boolean;
  /** Lower-cased legacy name, or undefined when the mode does not read it. */
  readonly legacyKey: string | undefined;
  /** Name of the header that carries the version in responses and in client requests. */
  readonly versionName: string;
  readonly versionKey: string;
  readonly minimumName: string | undefined;
  readonly maximumName: string | undefined;
  /** `Vary` value: every request header the answer depends on. */
  readonly vary: string;
  /** The same, one lower-cased name per element. */
  readonly varyNames: readonly string[];
}

/** A header style that cannot work (a legacy mode without a header name…). */
export class HeaderStyleError extends Error {
  readonly style: HeaderStyle;

  constructor(style: HeaderStyle, problem: string) {
    super(`Invalid microversion header style: ${problem}`);
    this.name = 'HeaderStyleError';
    this.style = style;
  }
}

/** Checks a header style and precomputes what each request needs of it. */
export function compileHeaderStyle(style: HeaderStyle): CompiledHeaderStyle {
  const readsStandard = style.mode !== 'legacy';
  const readsLegacy = style.mode !== 'new';
  if (readsLegacy && !style.legacyName) {
    throw new HeaderStyleError(style, `mode "${style.mode}" needs a legacyName`);
  }
  const legacyName = readsLegacy ? (style.legacyName as string) : undefined;
  const versionName = legacyName ?? STANDARD_HEADER;
  const varied: string[] = [];
  if (readsStandard) varied.push(STANDARD_HEADER.toLowerCase());
  if (legacyName) varied.push(legacyName.toLowerCase());
  return {
    mode: style.mode,
    readsStandard,
    legacyKey: legacyName?.toLowerCase(),
    versionName,
    versionKey: versionName.toLowerCase(),
    minimumName: style.minimumName,
    maximumName: style.maximumName,
    vary: varied.join(', '),
    varyNames: varied,
  };
}
