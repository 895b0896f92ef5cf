/**
 * RabbitMQ (AMQP 0-9-1) through amqplib, speaking oslo.messaging's wire
 * (its rabbit driver, 14.x): the names and flags of amqp-topology.ts, the
 * bodies of amqp-wire.ts, the failures of amqp-failures.ts. A Baton client
 * can call a Python oslo.messaging server and the other way round.
 *
 * A call is published to `<topic>` or `<topic>.<server>` on the service's
 * topic exchange with its `_msg_id` and this connection's `_reply_q` in the
 * body, and answered there; its `expiration` is the call's timeout, so a
 * request nobody took in time is dropped rather than run late. Calls are
 * published `mandatory`: one no queue takes fails at once (NoRpcServerError).
 * If the connection drops while a call is in flight the caller gets
 * RpcConnectionLostError at once. A cast is published persistent and
 * mandatory on a confirm channel and resolves on the broker's confirm; an
 * unroutable one is refused (NoRpcServerError); one whose confirm was lost
 * with the connection is published again after reconnecting (at least
 * once). The serving side is amqp-listener.ts.
 */
import type { ConsumeMessage } from 'amqplib';
import {
  NoRpcServerError,
  RpcConnectionLostError,
  type RpcDestination,
  RpcError,
  RpcTimeoutError,
} from '../errors.ts';
import type { RpcReply, RpcRequest } from '../message.ts';
import { type RpcLogger, stderrRpcLogger } from '../observer.ts';
import { AmqpConnection, type AmqpSession } from './amqp-connection.ts';
import { wireFailureOfOslo } from './amqp-failures.ts';
import { AmqpServing } from './amqp-listener.ts';
import {
  type AmqpDurability,
  FANOUT_EXCHANGE_FLAGS,
  fanoutExchange,
  OSLO_DURABILITY,
  PRIVATE_QUEUE_FLAGS,
  replyQueue,
  topicFlags,
  topicKey,
  withHeartbeat,
} from './amqp-topology.ts';
import {
  decodeReply,
  decodeRequest,
  encodeRequest,
  JSON_CONTENT,
  newMessageId,
} from './amqp-wire.ts';
import type { RpcListener, RpcListenTarget, RpcRequestHandler, RpcTransport } from './transport.ts';

/** How the AMQP transport reaches RabbitMQ. */
export interface AmqpTransportOptions {
  /** `amqp://user:password@host:5672/vhost` */
  readonly url: string;
  /** The service's topic exchange (oslo's control_exchange); default `baton`. */
  readonly exchange?: string;
  /** oslo's amqp_durable_queues: the topic exchange and queues survive a broker restart (default false). */
  readonly durable?: boolean;
  /** oslo's amqp_auto_delete: the topic exchange and queues go when unused (default false). */
  readonly autoDelete?: boolean;
  /** Unacknowledged requests a server holds per queue (default 128). */
  readonly prefetch?: number;
  /** How long `listen` waits for the first connection (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** Where unreadable and duplicate messages are reported (default: warnings on stderr). */
  readonly logger?: RpcLogger;
}

interface PendingCall {
  readonly resolve: (reply: RpcReply) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
  readonly dest: RpcDestination;
  readonly request: RpcRequest;
  /** A result that came before its `ending` message (oslo before 2016 sent two). */
  early?: RpcReply;
}

type CastOutcome = 'confirmed' | 'returned' | 'nacked' | 'dropped' | 'timeout';

/** RPC over AMQP (RabbitMQ), laid out as oslo.messaging's rabbit driver. */
export class AmqpTransport implements RpcTransport {
  readonly kind = 'amqp';
  readonly exchange: string;
  readonly durability: AmqpDurability;
  readonly #prefetch: number;
  readonly #connectTimeoutMs: number;
  readonly #logger: RpcLogger;
  readonly #connection: AmqpConnection;
  readonly #serving: AmqpServing;
  /** Calls awaiting their answer, by `_msg_id`. */
  readonly #calls = new Map<string, PendingCall>();
  /** Casts awaiting their confirm, by `_unique_id`: whether the broker returned them. */
  readonly #casts = new Map<string, { returned: boolean }>();
  #replyQueue = '';
  #fanoutDeclared = new Set<string>();

  constructor(options: AmqpTransportOptions) {
    this.exchange = options.exchange ?? 'baton';
    this.durability = {
      durable: options.durable ?? OSLO_DURABILITY.durable,
      autoDelete: options.autoDelete ?? OSLO_DURABILITY.autoDelete,
    };
    this.#prefetch = options.prefetch ?? 128;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.#logger = options.logger ?? stderrRpcLogger('baton rpc amqp');
    this.#connection = new AmqpConnection(withHeartbeat(options.url), {
      setup: (session) => this.#setup(session),
      lost: (reason) => this.#lost(reason),
    });
    this.#serving = new AmqpServing({
      connection: this.#connection,
      exchange: this.exchange,
      durability: this.durability,
      logger: this.#logger,
    });
  }

  /** Drops the broker connection as a network failure would (tests, operators); it comes back. */
  dropConnection(reason = 'dropped on request'): void {
    this.#connection.drop(reason);
  }

  async #setup(session: AmqpSession): Promise<void> {
    const { channel } = session;
    await channel.assertExchange(this.exchange, 'topic', topicFlags(this.durability));
    const queue = replyQueue();
    await channel.assertQueue(queue, PRIVATE_QUEUE_FLAGS);
    await channel.consume(queue, (msg) => this.#onReply(msg), { noAck: true });
    channel.on('return', (msg: ConsumeMessage) => this.#onReturn(msg));
    await channel.prefetch(this.#prefetch);
    this.#replyQueue = queue;
    this.#fanoutDeclared = new Set();
    await this.#serving.resume(session);
  }

  #lost(reason: string): void {
    for (const [id, call] of this.#calls) {
      clearTimeout(call.timer);
      this.#calls.delete(id);
      call.reject(
        new RpcConnectionLostError(
          call.dest,
          call.request.method,
          `broker connection lost (${reason})`,
        ),
      );
    }
  }

  #onReply(msg: ConsumeMessage | null): void {
    if (msg === null) return;
    const decoded = decodeReply(msg.content, msg.properties.contentType);
    if (!decoded.ok) {
      this.#logger.warn(
        { transport: 'amqp', origin: this.#replyQueue, problem: decoded.problem },
        `unreadable RPC reply on ${this.#replyQueue}: ${decoded.problem}; dropped`,
      );
      return;
    }
    const call = this.#calls.get(decoded.msgId);
    if (call === undefined) return; // a late reply to a call that gave up
    const hasContent = decoded.result !== null || decoded.failure !== null;
    // oslo's reply waiter: content, then `ending`; `ending: false` alone is a keep-alive.
    const reply: RpcReply | undefined = !hasContent
      ? call.early
      : decoded.failure !== null
        ? { ok: false, failure: wireFailureOfOslo(decoded.failure, call.request) }
        : { ok: true, result: decoded.result };
    if (!decoded.ending) {
      if (reply !== undefined) call.early = reply;
      return;
    }
    this.#calls.delete(decoded.msgId);
    clearTimeout(call.timer);
    call.resolve(reply ?? { ok: true, result: null });
  }

  /** A `mandatory` message no queue took: the body says which call or cast it was. */
  #onReturn(msg: ConsumeMessage): void {
    const decoded = decodeRequest(msg.content, msg.properties.contentType);
    if (!decoded.ok) return;
    const id = decoded.reply?.msgId;
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call !== undefined && id !== undefined) {
      this.#calls.delete(id);
      clearTimeout(call.timer);
      call.reject(
        new NoRpcServerError(
          call.dest,
          call.request.method,
          `no queue bound to '${msg.fields.routingKey}'`,
        ),
      );
      return;
    }
    const cast = decoded.uniqueId === undefined ? undefined : this.#casts.get(decoded.uniqueId);
    if (cast !== undefined) cast.returned = true;
  }

  async #session(dest: RpcDestination, method: string, deadline: number, timeoutMs: number) {
    try {
      return await this.#connection.ready(deadline);
    } catch (error) {
      throw new RpcTimeoutError(dest, method, timeoutMs, (error as Error).message);
    }
  }

  /** Sends a request and waits for its reply. */
  async call(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<RpcReply> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const session = await this.#session(dest, request.method, deadline, timeoutMs);
      const pending = this.#publishCall(session, dest, request, deadline, timeoutMs);
      // Undefined: the connection went before the message left; wait for the next one.
      if (pending !== undefined) return pending;
    }
  }

  #publishCall(
    session: AmqpSession,
    dest: RpcDestination,
    request: RpcRequest,
    deadline: number,
    timeoutMs: number,
  ): Promise<RpcReply> | undefined {
    if (this.#connection.session !== session) return undefined;
    const msgId = newMessageId();
    const { body } = encodeRequest(request, { msgId, replyQ: this.#replyQueue });
    const left = Math.max(1, deadline - Date.now());
    let registered: PendingCall | undefined;
    const reply = new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#calls.delete(msgId);
        reject(new RpcTimeoutError(dest, request.method, timeoutMs));
      }, left);
      registered = { resolve, reject, timer, dest, request };
      this.#calls.set(msgId, registered);
    });
    try {
      // Not persistent (oslo's are): a call lives no longer than its timeout, and on durable
      // queues the broker would write every one to disk (measured: a third of the throughput).
      session.channel.publish(this.exchange, topicKey(dest.topic, dest.server), body, {
        ...JSON_CONTENT,
        expiration: String(left),
        mandatory: true,
      });
      return reply;
    } catch {
      this.#calls.delete(msgId);
      if (registered !== undefined) clearTimeout(registered.timer);
      return undefined;
    }
  }

  /** Sends a request without waiting for a reply. */
  async cast(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // One body for every attempt: a server that got an earlier one drops the copy by its _unique_id.
    const { body, uniqueId } = encodeRequest(request);
    for (;;) {
      const session = await this.#session(dest, request.method, deadline, timeoutMs);
      const outcome = await this.#publishConfirmed(session, dest, uniqueId, body, deadline);
      if (outcome === 'confirmed') return;
      if (outcome === 'returned')
        throw new NoRpcServerError(dest, request.method, 'no queue bound for it on the broker');
      if (outcome === 'timeout')
        throw new RpcTimeoutError(
          dest,
          request.method,
          timeoutMs,
          'cast not confirmed by the broker',
        );
      if (outcome === 'nacked')
        throw new RpcError(`cast '${request.method}' refused by the broker`);
      // 'dropped': the connection went before the confirm; publish again on the next one.
    }
  }

  async #publishConfirmed(
    session: AmqpSession,
    dest: RpcDestination,
    uniqueId: string,
    body: Buffer,
    deadline: number,
  ): Promise<CastOutcome> {
    let exchange = this.exchange;
    let key = topicKey(dest.topic, dest.server);
    try {
      if (dest.fanout) {
        exchange = fanoutExchange(dest.topic);
        key = '';
        if (!this.#fanoutDeclared.has(exchange)) {
          await session.channel.assertExchange(exchange, 'fanout', FANOUT_EXCHANGE_FLAGS);
          this.#fanoutDeclared.add(exchange);
        }
      }
    } catch {
      return 'dropped';
    }
    const entry = { returned: false };
    this.#casts.set(uniqueId, entry);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish('timeout'), Math.max(1, deadline - Date.now()));
      const finish = (outcome: CastOutcome) => {
        clearTimeout(timer);
        this.#casts.delete(uniqueId);
        resolve(outcome);
      };
      try {
        session.channel.publish(
          exchange,
          key,
          body,
          { ...JSON_CONTENT, deliveryMode: 2, mandatory: true },
          (error) => {
            if (error === null || error === undefined)
              finish(entry.returned ? 'returned' : 'confirmed');
            else finish(/nack/.test(String(error.message)) ? 'nacked' : 'dropped');
          },
        );
      } catch {
        finish('dropped');
      }
    });
  }

  /** Starts taking requests for a target. */
  async listen(target: RpcListenTarget, handler: RpcRequestHandler): Promise<RpcListener> {
    try {
      const session = await this.#connection.ready(Date.now() + this.#connectTimeoutMs);
      const stop = await this.#serving.add(session, target, handler);
      return { stop };
    } catch (error) {
      throw new RpcError(`cannot listen on topic '${target.topic}': ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.#serving.stopAll();
    await this.#connection.close();
    this.#lost('transport closed');
  }
}
