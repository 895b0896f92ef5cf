/**
 * One request of a load, sent and recorded: what a service's load (a {@link ServiceLoad})
 * needs for each call it makes, so that a definition outside this repository can write its
 * load in a few lines. The answer counts as served only with the expected status.
 */
import { Agent, request as send } from 'undici';
import type { RequestLog } from './request-log.ts';

/**
 * The load's own connection pool, kept alive. undici's `request` rather than `fetch`, which
 * costs several times its CPU per request: at hundreds of requests per second the load
 * generator shares the machine's cores with the cluster it measures (docs/rehearsal.md).
 */
const LOAD_AGENT = new Agent({ keepAliveTimeout: 4_000, connections: 256 });

/** One request of the load: where, what, and the status that means it was served. */
export interface LoadRequest {
  /** The load profile's word for it (`create`, `show` …): the report counts by kind. */
  readonly kind: string;
  readonly method: string;
  /** The full URL: the balancer's (`LoadSettings.baseUrl`) or an API's own, and the path. */
  readonly url: string;
  /** The status of a served answer (201 for a create …). */
  readonly expected: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Milliseconds before the request counts as failed; 30 s unless given. */
  readonly timeoutMs?: number;
}

/** A served answer: its JSON body (`{}` when empty) and headers. */
export interface LoadAnswer {
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

/**
 * Sends `request` and adds it to `log`, answered or not; the answer when it came with the
 * expected status and a JSON (or empty) body, undefined when it failed (the log says why).
 */
export async function sendRecorded(
  log: RequestLog,
  request: LoadRequest,
): Promise<LoadAnswer | undefined> {
  const startedAt = Date.now();
  const started = performance.now();
  let status = 0;
  let detail: string | undefined;
  let body: Record<string, unknown> = {};
  let headers = new Headers();
  try {
    const timeout = request.timeoutMs ?? 30_000;
    const response = await send(request.url, {
      method: request.method as 'GET',
      headers: {
        ...request.headers,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      dispatcher: LOAD_AGENT,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    status = response.statusCode;
    headers = answerHeaders(response.headers);
    const text = await response.body.text();
    if (status !== request.expected) detail = text.slice(0, 500);
    else if (text !== '') body = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  const ok = status === request.expected && detail === undefined;
  log.add({
    kind: request.kind,
    method: request.method,
    path: new URL(request.url).pathname,
    startedAt,
    ms: performance.now() - started,
    status,
    ok,
    ...(detail === undefined ? {} : { detail }),
  });
  return ok ? { body, headers } : undefined;
}

function answerHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (value !== undefined) for (const one of value) headers.append(name, one);
  }
  return headers;
}
