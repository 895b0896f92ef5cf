/**
 * Requests Node's HTTP parser refuses, answered in Placement's error format instead of the
 * framework's default (`{"error":"Bad Request","message":"Client Error","statusCode":400}`):
 *
 * - A head whose body cannot be framed (a Content-Length that is not digits, two of them, one
 *   beside Transfer-Encoding, an unknown transfer coding): the head is read again here and
 *   the request goes through the app as any other, without its body. The real service sees
 *   such a header as its WSGI server passes it on, and answers from its own checks: `int()`
 *   refusing the value is its 400 `content-length header must be an integer`, after auth and
 *   version negotiation, as in app.ts's hook; a body it cannot read is an empty one (uWSGI
 *   ignores a transfer coding), so a handler that wants JSON says `Malformed JSON`.
 * - A body that breaks while it is read (a bad chunk): the request under way is finished
 *   with its body read as empty, as above.
 * - Anything else (a malformed request line or header, headers too large, a request too
 *   slow): a Placement error body with its own request id (400, 431 or 408), the connection
 *   closed. uWSGI, in front of the real service, drops such connections without a word.
 */
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { noteRequestTimeout } from '../../service/http/connection-limits.ts';
import { parserRefusal } from '../../service/http/parser-refusal.ts';
import { placementJson } from './error-body.ts';
import { renderWebobError, titleOf } from './webob-error.ts';

/** Parser errors about the body's framing, raised once the head is complete. */
const FRAMING_ERRORS = new Set([
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
]);

/** Requests whose body Baton could not frame or read: handled as bodiless (app.ts). */
const bodyUnread = new WeakSet<IncomingMessage>();

export function isBodyUnread(request: IncomingMessage): boolean {
  return bodyUnread.has(request);
}

type ParserError = Error & { code?: string; reason?: string; rawPacket?: unknown };
type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

export interface RequestHead {
  readonly method: string;
  readonly target: string;
  readonly version: string;
  /** Names lower-cased, repeated ones joined with `, ` (as a WSGI environ has them). */
  readonly headers: Record<string, string>;
}

/** The request line and headers at the start of `raw`, if they are all there and well formed. */
export function parseRequestHead(raw: unknown): RequestHead | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [requestLine, ...fields] = text.slice(0, end).split('\r\n');
  const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/(\d\.\d)$/.exec(requestLine ?? '');
  if (line === null) return undefined;
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon <= 0) return undefined;
    const name = field.slice(0, colon).toLowerCase();
    const value = field.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return {
    method: line[1] as string,
    target: line[2] as string,
    version: line[3] as string,
    headers,
  };
}

/** Fastify's clientErrorHandler for the Placement app. */
export function answerClientError(app: FastifyInstance, error: ParserError, socket: Socket): void {
  const server = socket as ServerSocket;
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = server._httpMessage ?? undefined;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // Counted and reported with the other cut connections (connection-limits.ts). A request
    // whose body did not arrive in time is not answered as bodiless: its connection is cut,
    // after a 408 when nothing of its answer left yet.
    noteRequestTimeout(app.server, inFlight?.req);
    if (inFlight?.headersSent) socket.destroy();
    else writeStandalone(socket, error);
    return;
  }
  if (error.code === 'HPE_INVALID_EOF_STATE') {
    // The client closed its end mid-request (an aborted upload): nobody to answer. Cut, the
    // request in flight is logged as aborted (app.ts).
    socket.destroy();
    return;
  }
  if (inFlight !== undefined) {
    finishInFlight(inFlight, socket);
    return;
  }
  const head = FRAMING_ERRORS.has(error.code ?? '') ? parseRequestHead(error.rawPacket) : undefined;
  if (head !== undefined) {
    replayWithoutBody(app, head, socket);
    return;
  }
  writeStandalone(socket, error);
}

/** The request under way loses its body; its answer closes the connection. */
function finishInFlight(response: ServerResponse, socket: Socket): void {
  const request = response.req;
  if (response.headersSent) {
    // Nothing can be said any more on this connection (Node's own handling).
    socket.destroy();
    return;
  }
  if (request.complete) {
    // The error belongs to a later request on the connection: this answer is the last.
    response.shouldKeepAlive = false;
    return;
  }
  bodyUnread.add(request);
  response.shouldKeepAlive = false;
  // Ended, not aborted: an aborted request would take the connection down before its answer.
  request.complete = true;
  request.push(null);
}

/** Runs the request through the app as if it had no body, on the client's connection. */
function replayWithoutBody(app: FastifyInstance, head: RequestHead, socket: Socket): void {
  const request = new IncomingMessage(socket);
  request.method = head.method;
  request.url = head.target;
  const { 'transfer-encoding': _unframed, ...headers } = head.headers;
  request.headers = headers;
  request.rawHeaders = Object.entries(headers).flat();
  request.httpVersion = head.version;
  request.httpVersionMajor = Number(head.version[0]);
  request.httpVersionMinor = Number(head.version[2]);
  request.complete = true;
  request.push(null);
  bodyUnread.add(request);
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket);
  response.on('finish', () => socket.destroySoon());
  app.routing(request, response);
}

function writeStandalone(socket: Socket, error: ParserError): void {
  if (socket.writable) {
    const { status, message } = parserRefusal(error);
    const requestId = `req-${randomUUID()}`;
    const facts = { method: '', accept: 'application/json', contentType: 'None' };
    const json = placementJson({ code: undefined, requestId, showsCode: undefined });
    const { contentType, body } = renderWebobError(status, message, facts, {
      format: json,
      stripped: true,
    });
    const bytes = Buffer.from(body);
    socket.write(
      [
        `HTTP/1.1 ${status} ${titleOf(status)}`,
        `x-openstack-request-id: ${requestId}`,
        `openstack-request-id: ${requestId}`,
        `content-type: ${contentType}`,
        `content-length: ${bytes.length}`,
        `Date: ${new Date().toUTCString()}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(bytes);
  }
  socket.destroySoon();
}
