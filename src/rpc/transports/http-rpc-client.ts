/**
 * The sending half of the http transport: posts JSON-RPC requests and
 * settles each one on its own. Calls for the same server and topic made in
 * the same event-loop turn leave together as one JSON-RPC batch (one POST,
 * one write), and the server streams their answers back as each is done
 * (http-json-rpc.ts): on this kind of machine a system call costs more than
 * a small call's whole handling, so fewer requests is what buys throughput.
 * A lone call goes as a plain request, so nothing waits for company.
 *
 * Each call keeps its own outcome: its answer, its timeout, and, when the
 * connection fails, refused (nothing sent) or lost (sent, outcome unknown).
 * A request whose calls have all settled without it (timeouts) is aborted.
 */
import { type ClientRequest, request as httpRequest, type RequestOptions } from 'node:http';
import type { JsonRpcId } from './http-json-rpc.ts';

/** What became of one posted request object. */
export type Sent =
  /** `message` is the call's response object, or undefined for an empty body (a 202). */
  | { readonly kind: 'answer'; readonly status: number; readonly message: unknown }
  | { readonly kind: 'unreadable'; readonly status: number; readonly reason: string }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'lost'; readonly reason: string }
  | { readonly kind: 'timeout' };

interface PendingCall {
  /** Undefined for a notification (a cast): its answer is the HTTP status. */
  readonly id: JsonRpcId | undefined;
  readonly json: string;
  readonly resolve: (sent: Sent) => void;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
  posted: Posted | undefined;
}

/** One HTTP request carrying one call or a batch of them. */
interface Posted {
  readonly req: ClientRequest;
  /** Its calls not settled yet. */
  open: number;
  /** The response ended or the request failed. */
  done: boolean;
}

interface Queue {
  readonly options: RequestOptions;
  readonly calls: PendingCall[];
}

const TIMEOUT: Sent = { kind: 'timeout' };

export class JsonRpcHttpClient {
  readonly #maxBatch: number;
  /** Calls waiting for the end of this turn, by request options (one object per server and topic). */
  readonly #queues = new Map<RequestOptions, Queue>();

  constructor(maxBatch: number) {
    this.#maxBatch = Math.max(1, maxBatch);
  }

  /**
   * Posts one encoded request object. `batch`: it may travel with others of
   * this turn (calls); casts go alone, as their 202 is their acknowledgement.
   */
  send(
    options: RequestOptions,
    id: JsonRpcId | undefined,
    json: string,
    timeoutMs: number,
    batch: boolean,
  ): Promise<Sent> {
    return new Promise<Sent>((resolve) => {
      const call: PendingCall = {
        id,
        json,
        resolve,
        timer: undefined,
        settled: false,
        posted: undefined,
      };
      call.timer = setTimeout(() => this.#settle(call, TIMEOUT), Math.max(1, timeoutMs));
      if (!batch) {
        this.#post(options, [call], false);
        return;
      }
      let queue = this.#queues.get(options);
      if (queue === undefined) {
        queue = { options, calls: [] };
        this.#queues.set(options, queue);
        const scheduled = queue;
        setImmediate(() => this.#flush(scheduled));
      }
      queue.calls.push(call);
      if (queue.calls.length >= this.#maxBatch) this.#flush(queue);
    });
  }

  #flush(queue: Queue): void {
    if (this.#queues.get(queue.options) !== queue) return;
    this.#queues.delete(queue.options);
    const calls = queue.calls.filter((call) => !call.settled);
    if (calls.length > 0) this.#post(queue.options, calls, false);
  }

  #post(options: RequestOptions, calls: PendingCall[], retried: boolean): void {
    const only = calls.length === 1 ? calls[0] : undefined;
    const body = only !== undefined ? only.json : `[${calls.map((c) => c.json).join(',')}]`;
    const byId = only !== undefined ? undefined : new Map<unknown, PendingCall>();
    if (byId !== undefined) for (const call of calls) byId.set(call.id, call);
    // The retry after a kept-alive socket was found closed goes on a new connection: the pool
    // may hold more sockets the stopping server closed, and a second reset would lose the call.
    const req = httpRequest(retried ? { ...options, agent: false } : options);
    const posted: Posted = { req, open: calls.length, done: false };
    for (const call of calls) call.posted = posted;
    const settleOpen = (sent: Sent) => {
      posted.done = true;
      for (const call of calls) this.#settle(call, sent);
    };
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const status = res.statusCode ?? 0;
      const deliver = (message: unknown) => {
        if (Array.isArray(message)) {
          for (const element of message) deliver(element);
          return;
        }
        const id = isObject(message) ? message.id : undefined;
        const call = only ?? byId?.get(id);
        if (call !== undefined && call.id === id) {
          this.#settle(call, { kind: 'answer', status, message });
        } else if (id === null || id === undefined) {
          // An answer to the whole request (unauthorized, malformed, not served here).
          settleOpen({ kind: 'answer', status, message });
        }
      };
      const line = (text: string) => {
        let element = text;
        const first = element.charCodeAt(0);
        // A streamed batch's punctuation: '[' and ']' alone, ',' before each later element.
        if (element === '[' || element === ']' || element === '') return;
        if (first === 44 /* , */) element = element.slice(1);
        let message: unknown;
        try {
          message = JSON.parse(element);
        } catch (error) {
          settleOpen({ kind: 'unreadable', status, reason: (error as Error).message });
          return;
        }
        deliver(message);
      };
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered = buffered === '' ? chunk : buffered + chunk;
        let start = 0;
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          line(buffered.slice(start, newline));
          start = newline + 1;
          newline = buffered.indexOf('\n', start);
        }
        if (start > 0) buffered = buffered.slice(start);
      });
      res.on('end', () => {
        line(buffered.trim());
        posted.done = true;
        for (const call of calls) {
          if (call.id === undefined)
            this.#settle(call, { kind: 'answer', status, message: undefined });
          else this.#settle(call, { kind: 'lost', reason: 'the answer had no response for it' });
        }
      });
      res.on('error', (error) => settleOpen({ kind: 'lost', reason: error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (posted.open === 0) return;
      if (error.code === 'ECONNREFUSED') {
        settleOpen({ kind: 'refused', reason: error.message });
      } else if (req.reusedSocket && error.code === 'ECONNRESET' && !retried && !answered) {
        // The server closed an idle kept-alive socket as we reused it: nothing was read.
        posted.done = true;
        const open = calls.filter((call) => !call.settled);
        if (open.length > 0) this.#post(options, open, true);
      } else {
        settleOpen({ kind: 'lost', reason: error.message });
      }
    });
    req.setHeader('content-length', Buffer.byteLength(body));
    req.end(body);
  }

  #settle(call: PendingCall, sent: Sent): void {
    if (call.settled) return;
    call.settled = true;
    clearTimeout(call.timer);
    const posted = call.posted;
    if (posted !== undefined) {
      posted.open--;
      // The last open call of the request timed out: give up its connection.
      if (posted.open === 0 && !posted.done && sent.kind === 'timeout') {
        posted.done = true;
        posted.req.destroy();
      }
    }
    call.resolve(sent);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
