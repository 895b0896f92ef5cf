/**
 * Requests Node's HTTP parser refuses (bad bytes in the request line or a header, a bad
 * Content-Length or transfer coding, an unknown method, headers too large, a request not
 * received within `[DEFAULT] request_receive_timeout`), answered as the API's other faults
 * are (`{"error_message": "{\"faultcode\": \"Client\", …}"}`, error-body.ts) with a request
 * id of their own, instead of Fastify's `{"error","message","statusCode"}`; the connection is
 * then closed. A request whose body broke after its head was read is answered the same way
 * (its handler never sees a body cut short); one whose answer has begun is cut.
 */
import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { noteRequestTimeout } from '../../service/http/connection-limits.ts';
import { type ParserError, parserRefusal } from '../../service/http/parser-refusal.ts';
import { faultBody } from './error-body.ts';

type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

/** Fastify's clientErrorHandler for the bare metal app. */
export function answerClientError(app: FastifyInstance, error: ParserError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as ServerSocket)._httpMessage ?? undefined;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') noteRequestTimeout(app.server, inFlight?.req);
  if (error.code === 'HPE_INVALID_EOF_STATE' || inFlight?.headersSent) {
    // The client closed its end mid-request (an aborted upload: nobody to answer; the request
    // in flight is logged as aborted, app.ts), or nothing can be said any more.
    socket.destroy();
    return;
  }
  if (inFlight?.req.complete) {
    // The error belongs to a later request on the connection: the answer under way is the last.
    inFlight.shouldKeepAlive = false;
    return;
  }
  const { status, message } = parserRefusal(error);
  const requestId = `req-${randomUUID()}`;
  if (socket.writable) {
    const body = Buffer.from(faultBody(status, message));
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
        `openstack-request-id: ${requestId}`,
        'content-type: application/json',
        `content-length: ${body.length}`,
        `date: ${new Date().toUTCString()}`,
        'connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(body);
  }
  // Timeouts are counted and reported together (connection-limits.ts); the others each logged
  // as a request is, with the id the client was given.
  if (status !== 408) {
    app.log.info(
      { request_id: requestId, status, reason: error.code ?? error.message },
      `request refused by the HTTP parser: ${message}`,
    );
  }
  socket.destroySoon();
}
