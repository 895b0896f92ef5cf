/**
 * Sends each request of a scenario to both servers (Baton's first, then the real one) and
 * records how their answers differ.
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/db/index.ts';
import { type Answer, compareAnswers, type Difference, UuidPairs } from './compare.ts';

export interface PairRequest {
  readonly method: string;
  readonly path: string;
  /** `OpenStack-API-Version: placement <version>`; left out, the header is not sent. */
  readonly version?: string;
  /** X-Auth-Token; default `admin`; null sends none. */
  readonly token?: string | null;
  /** A JSON body (serialised), or a raw string sent as is. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface StepResult {
  readonly title: string;
  readonly request: PairRequest;
  readonly baton: Answer;
  readonly real: Answer;
  readonly differences: readonly Difference[];
}

async function send(base: string, request: PairRequest): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.token !== null) headers['x-auth-token'] = request.token ?? 'admin';
  if (request.version !== undefined)
    headers['openstack-api-version'] = `placement ${request.version}`;
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['content-type'] = 'application/json';
  }
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (value === '') delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const url = `${base}${request.path}`;
  let response: Response;
  try {
    response = await fetch(url, { method: request.method, headers, body });
  } catch {
    // uWSGI leaves an unread body on a kept-alive connection after some early errors, and
    // closes it at the next request: that request is sent again on a fresh connection.
    response = await fetch(url, { method: request.method, headers, body });
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? '' : JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  const answerHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    answerHeaders[name] = value;
  });
  return { status: response.status, headers: answerHeaders, body: parsed, text };
}

export class Pair {
  readonly steps: StepResult[] = [];
  readonly #pairs = new UuidPairs();
  readonly batonUrl: string;
  readonly realUrl: string;
  /** The two servers' database URLs (same schema: Baton's tables are the real ones). */
  readonly #databases: readonly string[];
  constructor(batonUrl: string, realUrl: string, databases: readonly string[] = []) {
    this.batonUrl = batonUrl;
    this.realUrl = realUrl;
    this.#databases = databases;
  }

  /**
   * Runs one statement on both servers' databases: for states no request can make, such as
   * allocations left without a consumer record by a release before consumers existed.
   */
  async sql(statement: string): Promise<void> {
    if (this.#databases.length === 0) throw new Error('this pair has no database access');
    for (const url of this.#databases) {
      const db = await openDatabase(url, { poolSize: 1 });
      try {
        await sql.raw(statement).execute(db.kysely);
      } finally {
        await db.close();
      }
    }
  }

  /** Sends the request to both; returns both answers (Baton's and the real one's). */
  async req(title: string, request: PairRequest): Promise<StepResult> {
    const baton = await send(this.batonUrl, request);
    const real = await send(this.realUrl, request);
    const differences = compareAnswers(baton, real, this.#pairs);
    const step = { title, request, baton, real, differences };
    this.steps.push(step);
    return step;
  }
}

export interface Scenario {
  readonly name: string;
  readonly run: (pair: Pair) => Promise<void>;
}
