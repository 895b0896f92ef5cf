/**
 * The serving side (oslo.messaging's RPCServer): endpoints for a topic,
 * listening as one named server of it. Requests are handled concurrently as
 * they arrive; `stop` stops taking new ones and waits for those in hand.
 */
import { RpcDispatcher, type RpcEndpoint } from './dispatcher.ts';
import type { RpcReply } from './message.ts';
import { outcomeOfReply, type RpcLogger, type RpcObserver } from './observer.ts';
import { PLAIN_SERIALIZER, type RpcSerializer } from './serializer.ts';
import type { IncomingRpc, RpcListener, RpcTransport } from './transports/transport.ts';

/** What an RpcServer listens on and dispatches to. */
export interface RpcServerOptions {
  readonly transport: RpcTransport;
  readonly topic: string;
  /** This server's name within the topic (its host). */
  readonly server: string;
  readonly endpoints: readonly RpcEndpoint[];
  readonly serializer?: RpcSerializer;
  /** A cast's failure has no caller to go to: it is reported here. */
  readonly onCastFailure?: (method: string, reply: RpcReply) => void;
  /** Told of every request handled, when its reply is ready (metrics, debug logs). */
  readonly observer?: RpcObserver;
  /** Where a failed cast is logged (a warning), besides `onCastFailure`. */
  readonly logger?: RpcLogger;
}

/** Listens on a topic and dispatches each request to its endpoints. */
export class RpcServer {
  readonly topic: string;
  readonly server: string;
  readonly #transport: RpcTransport;
  readonly #dispatcher: RpcDispatcher;
  readonly #onCastFailure: RpcServerOptions['onCastFailure'];
  readonly #observer: RpcObserver | undefined;
  readonly #logger: RpcLogger | undefined;
  #listener: RpcListener | undefined;

  constructor(options: RpcServerOptions) {
    this.topic = options.topic;
    this.server = options.server;
    this.#transport = options.transport;
    this.#dispatcher = new RpcDispatcher(options.endpoints, options.serializer ?? PLAIN_SERIALIZER);
    this.#onCastFailure = options.onCastFailure;
    this.#observer = options.observer;
    this.#logger = options.logger;
  }

  /** Starts listening. */
  async start(): Promise<void> {
    if (this.#listener !== undefined) return;
    this.#listener = await this.#transport.listen(
      { topic: this.topic, server: this.server },
      (incoming) => this.#handle(incoming),
    );
  }

  /** Stops listening, after the requests being handled. */
  async stop(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.stop();
  }

  async #handle(incoming: IncomingRpc): Promise<RpcReply> {
    const started = performance.now();
    const { request } = incoming;
    const reply = await this.#dispatcher.dispatch(request);
    this.#observer?.rpcEnded({
      side: 'server',
      kind: incoming.expectsReply ? 'call' : 'cast',
      topic: this.topic,
      method: request.method,
      version: String(request.version),
      outcome: outcomeOfReply(reply),
      seconds: (performance.now() - started) / 1000,
      ...(reply.ok ? {} : { errorType: reply.failure.type, errorMessage: reply.failure.message }),
    });
    if (!incoming.expectsReply && !reply.ok) {
      this.#logger?.warn(
        {
          topic: this.topic,
          method: request.method,
          version: request.version,
          error_type: reply.failure.type,
        },
        `RPC cast '${request.method}' failed: ${reply.failure.type}: ${reply.failure.message}`,
      );
      this.#onCastFailure?.(request.method, reply);
    }
    return reply;
  }
}
