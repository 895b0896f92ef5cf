/**
 * The serving side (oslo.messaging's RPCServer): endpoints for a topic,
 * listening as one named server of it. Requests are handled concurrently as
 * they arrive; `stop` stops taking new ones and waits for those in hand.
 */
import { RpcDispatcher, type RpcEndpoint } from './dispatcher.ts';
import type { RpcReply } from './message.ts';
import { PLAIN_SERIALIZER, type RpcSerializer } from './serializer.ts';
import type { IncomingRpc, RpcListener, RpcTransport } from './transports/transport.ts';

export interface RpcServerOptions {
  readonly transport: RpcTransport;
  readonly topic: string;
  /** This server's name within the topic (its host). */
  readonly server: string;
  readonly endpoints: readonly RpcEndpoint[];
  readonly serializer?: RpcSerializer;
  /** A cast's failure has no caller to go to: it is reported here. */
  readonly onCastFailure?: (method: string, reply: RpcReply) => void;
}

export class RpcServer {
  readonly topic: string;
  readonly server: string;
  readonly #transport: RpcTransport;
  readonly #dispatcher: RpcDispatcher;
  readonly #onCastFailure: RpcServerOptions['onCastFailure'];
  #listener: RpcListener | undefined;

  constructor(options: RpcServerOptions) {
    this.topic = options.topic;
    this.server = options.server;
    this.#transport = options.transport;
    this.#dispatcher = new RpcDispatcher(options.endpoints, options.serializer ?? PLAIN_SERIALIZER);
    this.#onCastFailure = options.onCastFailure;
  }

  async start(): Promise<void> {
    if (this.#listener !== undefined) return;
    this.#listener = await this.#transport.listen(
      { topic: this.topic, server: this.server },
      (incoming) => this.#handle(incoming),
    );
  }

  async stop(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.stop();
  }

  async #handle(incoming: IncomingRpc): Promise<RpcReply> {
    const reply = await this.#dispatcher.dispatch(incoming.request);
    if (!incoming.expectsReply && !reply.ok) this.#onCastFailure?.(incoming.request.method, reply);
    return reply;
  }
}
