/**
 * Request bodies read when a handler asks for them, not before: checks that need no body
 * (authentication, policy, the content type) answer first, and a refused request's body is
 * never buffered (Node discards what is left of it, bounded below). The size limit is
 * enforced while reading: a declared Content-Length over it is refused before a byte is
 * read, a chunked body as soon as it passes it (docs/security.md, "Hostile input").
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Fits the largest request measured (a reshape of 1,000 consumers on a nested compute node,
 * docs/security.md) with margin; oslo.middleware's 114688 does not.
 */
export const DEFAULT_MAX_REQUEST_BODY_SIZE = 8 * 1024 * 1024;

/** The body passed the limit: the service answers 413 in its own format. */
export class RequestBodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super('Request is too large.');
    this.name = 'RequestBodyTooLargeError';
    this.limit = limit;
  }
}

/** The client closed its connection before the whole body arrived: no answer can reach it. */
export class RequestAbortedError extends Error {
  constructor() {
    super('the client closed the connection before its request body was received');
    this.name = 'RequestAbortedError';
  }
}

/**
 * True when `error` only says the client went away mid-request (an aborted upload): the
 * services log it as one warning, not as a failure of theirs (fastify-operations.ts).
 */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  if (error instanceof RequestAbortedError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return request.raw.aborted || (code === 'ECONNRESET' && !request.raw.complete);
}

const bodies = new WeakMap<FastifyRequest, Promise<Buffer>>();

/**
 * Registers the lazy body: every content type is accepted by the framework and left unread
 * (a handler reads it with `readRequestBody`), and a body nobody read is discarded as it
 * arrives, the connection closed once more than `limit` bytes of it came after the answer.
 */
export function registerLazyBody(app: FastifyInstance, limit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  registerUnreadBodyDiscard(app, limit);
}

/**
 * A body left unread when the answer went out (refused before it was read, or past the
 * limit) is discarded as it arrives, and the connection closed once `limit` more bytes came:
 * an endless body cannot hold a connection.
 */
export function registerUnreadBodyDiscard(app: FastifyInstance, limit: number): void {
  app.addHook('onResponse', (request, _reply, done) => {
    const raw = request.raw;
    if (!raw.complete && !raw.destroyed && !bodies.has(request)) discardBounded(raw, limit);
    done();
  });
}

function discardBounded(raw: IncomingMessage, limit: number): void {
  let seen = 0;
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) raw.socket?.destroy();
  });
  raw.resume();
}

function isStream(body: unknown): body is NodeJS.ReadableStream {
  return typeof (body as { on?: unknown } | null)?.on === 'function';
}

/**
 * The request's body (read once, the same bytes to every caller), an empty buffer when there
 * is none. Throws RequestBodyTooLargeError past `limit` bytes; the connection is then closed
 * after the answer rather than the rest read.
 */
export function readRequestBody(request: FastifyRequest, limit: number): Promise<Buffer> {
  let body = bodies.get(request);
  if (body === undefined) {
    body = collect(request, limit);
    bodies.set(request, body);
  }
  return body;
}

function collect(request: FastifyRequest, limit: number): Promise<Buffer> {
  const source = request.body;
  if (typeof source === 'string') return Promise.resolve(Buffer.from(source));
  if (Buffer.isBuffer(source)) return Promise.resolve(source);
  if (!isStream(source)) return Promise.resolve(Buffer.alloc(0));
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(tooLarge(request, limit));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        source.removeListener('data', onData);
        source.pause();
        reject(tooLarge(request, limit));
        return;
      }
      chunks.push(chunk);
    };
    source.on('data', onData);
    source.once('end', () => resolve(Buffer.concat(chunks, size)));
    source.once('error', (error: Error & { code?: string }) =>
      reject(error.code === 'ECONNRESET' ? new RequestAbortedError() : error),
    );
    // A client gone mid-body: no answer will reach it, but the handler must not wait forever.
    source.once('close', () => reject(new RequestAbortedError()));
  });
}

/** The answer to a body over the limit is the connection's last. */
function tooLarge(request: FastifyRequest, limit: number): RequestBodyTooLargeError {
  const response = request.raw.socket as { _httpMessage?: { shouldKeepAlive: boolean } } | null;
  if (response?._httpMessage) response._httpMessage.shouldKeepAlive = false;
  return new RequestBodyTooLargeError(limit);
}
