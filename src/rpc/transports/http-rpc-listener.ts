/**
 * The listening half of the http transport: one node:http server per
 * transport, loopback by default, serving every topic the process listens
 * on at `POST /rpc/<topic>`. With an auth (http-rpc-auth.ts: a shared secret, a Keystone
 * token), a request is checked before its body is read; a refused one runs nothing, gets its
 * status (401, 403, 503) with a JSON-RPC error object, and one WARNING line in the log.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RpcLogger } from '../observer.ts';
import { failureOf } from '../wire-errors.ts';
import {
  type DecodedRequest,
  decodeRequestMessage,
  encodeFailure,
  encodeReply,
  JSON_RPC_CODES,
  JsonRpcProtocolError,
  parseRequestBody,
} from './http-json-rpc.ts';
import type { HttpRpcServerAuth, HttpRpcVerdict } from './http-rpc-auth.ts';
import type { RpcListenTarget, RpcRequestHandler } from './transport.ts';

/** Largest request body accepted. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
export const RPC_PATH_PREFIX = '/rpc/';

interface Route {
  readonly target: RpcListenTarget;
  readonly handler: RpcRequestHandler;
  readonly inFlight: Set<Promise<unknown>>;
}

export class HttpRpcListener {
  readonly #routes = new Map<string, Route[]>();
  readonly #auth: HttpRpcServerAuth | undefined;
  readonly #logger: RpcLogger | undefined;
  #server: Server | undefined;
  /** Closing: every answer closes its connection, and an idle one is closed at once. */
  #closing = false;
  readonly #answering = new Set<ServerResponse>();

  constructor(auth?: HttpRpcServerAuth, logger?: RpcLogger) {
    this.#auth = auth;
    this.#logger = logger;
  }

  /** Starts the HTTP server unless running; resolves with the bound port. */
  async start(host: string, port: number): Promise<number> {
    if (this.#server === undefined) {
      const server = createServer((req, res) => {
        // The same stop as the APIs' (service/http/http-drain.ts): a caller's keep-alive
        // connection never keeps a stopping conductor alive for the keep-alive timeout.
        this.#answering.add(res);
        if (this.#closing) res.setHeader('connection', 'close');
        res.once('close', () => {
          this.#answering.delete(res);
          if (this.#closing) setImmediate(() => server.closeIdleConnections());
        });
        this.#serve(req, res);
      });
      this.#closing = false;
      // Longer than the clients' idle sockets live, so a client never reuses a closing one.
      server.keepAliveTimeout = 30_000;
      this.#server = server;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    }
    return (this.#server.address() as AddressInfo).port;
  }

  add(target: RpcListenTarget, handler: RpcRequestHandler): Route {
    const route: Route = { target, handler, inFlight: new Set() };
    const list = this.#routes.get(target.topic) ?? [];
    list.push(route);
    this.#routes.set(target.topic, list);
    return route;
  }

  async remove(route: Route): Promise<void> {
    const list = this.#routes.get(route.target.topic) ?? [];
    const index = list.indexOf(route);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) this.#routes.delete(route.target.topic);
    await Promise.allSettled([...route.inFlight]);
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server === undefined) return;
    this.#closing = true;
    for (const res of this.#answering) if (!res.headersSent) res.setHeader('connection', 'close');
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  /** The auth's verdict; a check that throws refuses (503), it never lets a request through. */
  async #verdict(req: IncomingMessage, auth: HttpRpcServerAuth): Promise<HttpRpcVerdict> {
    try {
      return await auth.check(req.headers);
    } catch (error) {
      return {
        ok: false,
        status: 503,
        message: 'the RPC server cannot check credentials now',
        reason: (error as Error).message,
      };
    }
  }

  #refuse(req: IncomingMessage, res: ServerResponse, verdict: HttpRpcVerdict & { ok: false }) {
    const topic = (req.url ?? '').slice(RPC_PATH_PREFIX.length);
    const from = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`;
    this.#logger?.warn(
      {},
      `RPC request from ${from} to topic ${topic} refused (${verdict.status}): ${verdict.reason}`,
    );
    const type = verdict.status === 403 ? 'RpcForbidden' : 'RpcAuthenticationError';
    const failure = { type, message: verdict.message };
    send(res, verdict.status, encodeFailure(null, failure, JSON_RPC_CODES.unauthorized));
    req.resume();
  }

  #serve(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '';
    if (req.method !== 'POST' || !url.startsWith(RPC_PATH_PREFIX)) {
      send(
        res,
        404,
        encodeFailure(
          null,
          { type: 'NotFound', message: 'POST /rpc/<topic>' },
          JSON_RPC_CODES.invalidRequest,
        ),
      );
      req.resume();
      return;
    }
    const auth = this.#auth;
    if (auth === undefined) {
      this.#receive(req, res, url);
      return;
    }
    // The body waits, unread, for the verdict (a stream does not flow without a reader).
    void this.#verdict(req, auth).then((verdict) => {
      if (verdict.ok) this.#receive(req, res, url);
      else this.#refuse(req, res, verdict);
    });
  }

  #receive(req: IncomingMessage, res: ServerResponse, url: string): void {
    const topic = decodeURIComponent(url.slice(RPC_PATH_PREFIX.length));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        const failure = { type: 'RequestTooLarge', message: `body over ${MAX_BODY_BYTES} bytes` };
        send(res, 413, encodeFailure(null, failure, JSON_RPC_CODES.invalidRequest));
        return;
      }
      this.#dispatch(topic, Buffer.concat(chunks).toString('utf8'), res);
    });
  }

  #dispatch(topic: string, body: string, res: ServerResponse): void {
    let message: unknown;
    try {
      message = parseRequestBody(body);
    } catch (error) {
      sendProtocolError(res, error as JsonRpcProtocolError);
      return;
    }
    if (Array.isArray(message)) {
      this.#dispatchBatch(topic, message, res);
      return;
    }
    let decoded: DecodedRequest;
    try {
      decoded = decodeRequestMessage(message);
    } catch (error) {
      sendProtocolError(res, error as JsonRpcProtocolError);
      return;
    }
    const route = this.#target(topic, decoded);
    if (typeof route === 'string') {
      send(res, 200, route);
      return;
    }
    // A cast is accepted before it runs: the sender learns it arrived, not how it went.
    if (decoded.id === undefined) send(res, 202, '');
    this.#run(route, decoded, (answer) => send(res, 200, answer));
  }

  /**
   * A JSON-RPC batch: every call runs at once, and its answer joins the
   * streamed array as soon as it is done (http-json-rpc.ts). Answers ready
   * in the same event-loop turn leave in one write; when all are ready at
   * the first write, the whole array goes with a content-length.
   */
  #dispatchBatch(topic: string, messages: unknown[], res: ServerResponse): void {
    if (messages.length === 0) {
      const error = new JsonRpcProtocolError(JSON_RPC_CODES.invalidRequest, 'an empty batch');
      sendProtocolError(res, error);
      return;
    }
    const stream = new BatchAnswerStream(res);
    for (const message of messages) {
      let decoded: DecodedRequest;
      try {
        decoded = decodeRequestMessage(message);
      } catch (error) {
        const e = error as JsonRpcProtocolError;
        stream.add(
          encodeFailure(e.id ?? null, { type: 'InvalidRequest', message: e.message }, e.code),
        );
        continue;
      }
      const route = this.#target(topic, decoded);
      if (typeof route === 'string') {
        if (decoded.id !== undefined) stream.add(route);
        continue;
      }
      if (decoded.id !== undefined) stream.expect();
      this.#run(route, decoded, (answer) => stream.add(answer, true));
    }
    stream.start();
  }

  /** The route of a request, or the encoded refusal when this process does not serve it. */
  #target(topic: string, decoded: DecodedRequest): Route | string {
    const route = this.#route(topic, decoded.server);
    if (route !== undefined) return route;
    const where = decoded.server === undefined ? '' : ` as server '${decoded.server}'`;
    const failure = { type: 'NoSuchTarget', message: `not serving topic '${topic}'${where} here` };
    return encodeFailure(decoded.id ?? null, failure, JSON_RPC_CODES.noSuchTarget);
  }

  /** Runs a request on its route; a call's encoded answer goes to `answer` when done. */
  #run(route: Route, decoded: DecodedRequest, answer: (encoded: string) => void): void {
    const id = decoded.id;
    const running = route
      .handler({ request: decoded.request, expectsReply: id !== undefined })
      .catch((error: unknown) => ({ ok: false as const, failure: failureOf(error) }));
    route.inFlight.add(running);
    void running.then((reply) => {
      route.inFlight.delete(running);
      if (id !== undefined) answer(encodeReply(id, reply));
    });
  }

  #route(topic: string, server: string | undefined): Route | undefined {
    const list = this.#routes.get(topic);
    if (list === undefined) return undefined;
    return server === undefined ? list[0] : list.find((r) => r.target.server === server);
  }
}

function sendProtocolError(res: ServerResponse, e: JsonRpcProtocolError): void {
  send(
    res,
    400,
    encodeFailure(e.id ?? null, { type: 'InvalidRequest', message: e.message }, e.code),
  );
}

/**
 * The answer to one batch: elements of the response array, one a line. Until
 * `start` (the end of the turn that dispatched the batch) answers only
 * collect; then what is ready goes out, the rest follow as they come, those
 * of one turn together.
 */
class BatchAnswerStream {
  readonly #res: ServerResponse;
  #outstanding = 0;
  #ready: string[] = [];
  #started = false;
  #streaming = false;
  #flushScheduled = false;
  #written = 0;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  /** One more call whose answer is to come. */
  expect(): void {
    this.#outstanding++;
  }

  /** An element of the answer; `expected` when it settles a call counted by `expect`. */
  add(encoded: string, expected = false): void {
    if (expected) this.#outstanding--;
    this.#ready.push(encoded);
    if (this.#streaming) this.#scheduleFlush();
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    setImmediate(() => this.#firstWrite());
  }

  #firstWrite(): void {
    const res = this.#res;
    if (this.#ready.length === 0 && this.#outstanding === 0) {
      // Only notifications: nothing to answer (JSON-RPC 2.0 says no array).
      send(res, 202, '');
      return;
    }
    if (this.#outstanding === 0) {
      send(res, 200, `[\n${this.#take()}]\n`);
      return;
    }
    this.#streaming = true;
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`[\n${this.#take()}`);
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.#flushScheduled = false;
      const res = this.#res;
      if (res.writableEnded || res.destroyed) return;
      const chunk = this.#take();
      if (this.#outstanding === 0) res.end(`${chunk}]\n`);
      else if (chunk !== '') res.write(chunk);
    });
  }

  /** The ready elements, a line each, a comma before all but the array's first. */
  #take(): string {
    const ready = this.#ready;
    if (ready.length === 0) return '';
    this.#ready = [];
    let text = this.#written === 0 ? '' : ',';
    this.#written += ready.length;
    text += ready.join('\n,');
    return `${text}\n`;
  }
}

function send(res: ServerResponse, status: number, body: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
