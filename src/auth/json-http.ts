/**
 * A small JSON-over-HTTP(S) client for Keystone: keep-alive connections, a bound on each
 * request's time and on the answer's size, CA/client certificates for https, and connection
 * failures told apart from answers (the caller retries the first, reads the second).
 */
import { readFile } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** A token with its catalog is tens of KiB; a larger answer is not one we can use. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface JsonAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The parsed body; undefined when empty or not JSON. */
  readonly body: unknown;
}

/** The request got no answer: refused, reset, unresolvable, or out of time. */
export class ConnectionFailedError extends Error {
  override name = 'ConnectionFailedError';
}

export interface TlsFiles {
  readonly cafile: string | undefined;
  readonly certfile: string | undefined;
  readonly keyfile: string | undefined;
  readonly insecure: boolean;
}

export class JsonHttpClient {
  readonly #http = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  readonly #https: HttpsAgent;
  readonly #timeoutMs: number;

  private constructor(https: HttpsAgent, timeoutMs: number) {
    this.#https = https;
    this.#timeoutMs = timeoutMs;
  }

  /** Reads the certificate files now, so a missing one is an error at start. */
  static async create(timeoutMs: number, tls: TlsFiles): Promise<JsonHttpClient> {
    const [ca, cert, key] = await Promise.all(
      [tls.cafile, tls.certfile, tls.keyfile].map((path) =>
        path === undefined ? undefined : readFile(path),
      ),
    );
    const https = new HttpsAgent({
      keepAlive: true,
      maxSockets: 16,
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
      rejectUnauthorized: !tls.insecure,
    });
    return new JsonHttpClient(https, timeoutMs);
  }

  /** Throws ConnectionFailedError when no answer came; any status is an answer. */
  send(
    method: string,
    url: string,
    headers: Readonly<Record<string, string>>,
    body?: unknown,
  ): Promise<JsonAnswer> {
    const target = new URL(url);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const secure = target.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        target,
        {
          method,
          agent: secure ? this.#https : this.#http,
          headers: {
            accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': payload.length }),
            ...headers,
          },
          timeout: this.#timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) {
              response.destroy(
                new ConnectionFailedError(`answer larger than ${MAX_ANSWER_BYTES} bytes`),
              );
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', (error) => reject(new ConnectionFailedError(error.message)));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text === '' ? undefined : JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
          });
        },
      );
      // The whole request is bounded, not only the idle time between packets.
      const deadline = setTimeout(
        () => request.destroy(new ConnectionFailedError(`no answer within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
      deadline.unref();
      request.on('timeout', () =>
        request.destroy(new ConnectionFailedError(`no answer within ${this.#timeoutMs} ms`)),
      );
      request.on('error', (error) => {
        clearTimeout(deadline);
        reject(
          error instanceof ConnectionFailedError
            ? error
            : new ConnectionFailedError(
                `${(error as NodeJS.ErrnoException).code ?? error.message}`,
              ),
        );
      });
      request.on('close', () => clearTimeout(deadline));
      request.end(payload);
    });
  }

  /** Closes the idle connections. */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
