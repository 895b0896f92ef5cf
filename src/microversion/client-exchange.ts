import { classifyResponse, type Range, type ResponseKind } from './client-negotiation.ts';
import { readVersionDocument } from './client-version-document.ts';
import { type CompiledHeaderStyle, STANDARD_HEADER } from './header-style.ts';
import {
  parseJsonBody,
  readRangeFromBody,
  readServerVersions,
  type ServerVersions,
} from './response-versions.ts';

/** How a client talks to one endpoint: its fetch, header style and service type. */
export interface ExchangeContext {
  readonly fetch: typeof fetch;
  readonly style: CompiledHeaderStyle;
  readonly serviceType: string;
}

export interface ExchangeRequest {
  readonly method?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: string | Uint8Array | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** One request and what its answer says about versions. */
export interface Exchange {
  /** The answer, its body unread (a 406's body is read and put back). */
  readonly response: Response;
  readonly versions: ServerVersions;
  /** The server's range: min/max headers, or the body of a 406 (Placement states it there). */
  readonly range: Range | undefined;
  readonly kind: ResponseKind;
}

function headerRange(versions: ServerVersions): Range | undefined {
  return versions.min !== undefined && versions.max !== undefined
    ? { min: versions.min, max: versions.max }
    : undefined;
}

function versionHeaders(
  context: ExchangeContext,
  headers: Record<string, string>,
  versionText: string,
): Record<string, string> {
  const name = context.style.versionName;
  headers[name] = name === STANDARD_HEADER ? `${context.serviceType} ${versionText}` : versionText;
  return headers;
}

/** Sends one request at `versionText` and classifies the answer. */
export async function exchange(
  context: ExchangeContext,
  url: string,
  init: ExchangeRequest,
  versionText: string,
): Promise<Exchange> {
  let response = await context.fetch(url, {
    method: init.method ?? 'GET',
    headers: versionHeaders(context, { ...init.headers }, versionText),
    body: init.body,
    signal: init.signal,
  });
  let versions = readServerVersions(response.headers, context.style, context.serviceType);
  let range = headerRange(versions);
  if (response.status === 406 && range === undefined) {
    // Placement states its range only in the 406 body; read it, keep the body for the caller.
    const text = await response.text();
    range = readRangeFromBody(parseJsonBody(text));
    if (range !== undefined) versions = { ...versions, aware: true };
    response = new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }
  const kind = classifyResponse(
    { status: response.status, aware: versions.aware, version: versions.version },
    versionText,
  );
  return { response, versions, range, kind };
}

/** What asking an endpoint's version document taught. */
export type Probe =
  /** The server knows microversions; its range when the answer or the document stated it. */
  | { readonly kind: 'versioned'; readonly range: Range | undefined }
  /** A versioned request succeeded without any version in the answer: use case 3. */
  | { readonly kind: 'unversioned' }
  /** Nothing learned: an error without version headers, a network failure. */
  | { readonly kind: 'unknown' };

// Headers about the caller's request and its answer, not about a GET of the JSON document.
const NOT_FOR_DOCUMENT = new Set(['accept', 'content-type', 'content-length', 'content-encoding']);

/**
 * `GET` of the endpoint itself, the version document of Placement's root and Ironic's `/v1`
 * (what python-ironicclient reads after a 406 without range headers). The caller's headers
 * (a token) go along, except those about its own request's body and answer format. With `versionText`, the request is versioned, so a success
 * without version headers means the server predates microversions; without, the server answers
 * at its default, as a version document is meant to be read.
 */
export async function probeVersionDocument(
  context: ExchangeContext,
  endpoint: string,
  init: ExchangeRequest,
  versionText: string | undefined,
): Promise<Probe> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (!NOT_FOR_DOCUMENT.has(name.toLowerCase())) headers[name] = value;
  }
  if (versionText !== undefined) versionHeaders(context, headers, versionText);
  let response: Response;
  let text: string;
  try {
    response = await context.fetch(endpoint, { method: 'GET', headers, signal: init.signal });
    text = await response.text();
  } catch (error) {
    // A cancelled request stays cancelled; anything else only means the probe taught nothing.
    if (init.signal?.aborted) throw error;
    return { kind: 'unknown' };
  }
  const versions = readServerVersions(response.headers, context.style, context.serviceType);
  const body = parseJsonBody(text);
  const fromBody =
    response.status < 400
      ? readVersionDocument(body)
      : response.status === 406
        ? readRangeFromBody(body)
        : undefined;
  const range = headerRange(versions) ?? fromBody;
  if (range !== undefined || versions.aware) return { kind: 'versioned', range };
  if (response.status < 400 && versionText !== undefined) return { kind: 'unversioned' };
  return { kind: 'unknown' };
}
