/**
 * RabbitMQ (AMQP 0-9-1) through amqplib, in oslo.messaging's shape (see
 * amqp-topology.ts). A call is published to `<topic>` or `<topic>.<server>`
 * on the service's topic exchange with `reply_to` and `correlation_id`, and
 * answered on the caller's reply queue; its `expiration` is the call's
 * timeout, so a request nobody took in time is dropped rather than run late.
 *
 * Delivery: a call is acknowledged when a server takes it (at most once);
 * if the connection drops while it is in flight the caller gets
 * RpcConnectionLostError at once. A cast is published persistent and
 * mandatory on a confirm channel and resolves on the broker's confirm; an
 * unroutable one is refused (NoRpcServerError); one whose confirm was lost
 * with the connection is published again after reconnecting (at least
 * once), and servers acknowledge casts only after handling them.
 */
import { randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import {
  NoRpcServerError,
  RpcConnectionLostError,
  type RpcDestination,
  RpcError,
  RpcTimeoutError,
} from '../errors.ts';
import { type RpcReply, type RpcRequest, readRpcReply, readRpcRequest } from '../message.ts';
import { failureOf } from '../wire-errors.ts';
import { AmqpConnection, type AmqpSession } from './amqp-connection.ts';
import {
  fanoutExchange,
  fanoutQueue,
  replyQueue,
  topicKey,
  withHeartbeat,
} from './amqp-topology.ts';
import type { RpcListener, RpcListenTarget, RpcRequestHandler, RpcTransport } from './transport.ts';

export interface AmqpTransportOptions {
  /** `amqp://user:password@host:5672/vhost` */
  readonly url: string;
  /** The service's topic exchange (oslo's control_exchange); default `baton`. */
  readonly exchange?: string;
  /** Unacknowledged requests a server holds per queue (default 128). */
  readonly prefetch?: number;
  /** How long `listen` waits for the first connection (default 10 s). */
  readonly connectTimeoutMs?: number;
}

interface PendingCall {
  readonly resolve: (reply: RpcReply) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
  readonly dest: RpcDestination;
  readonly method: string;
}

interface ServerState {
  readonly target: RpcListenTarget;
  readonly handler: RpcRequestHandler;
  readonly inFlight: Set<Promise<unknown>>;
  generation: number;
  consumerTags: string[];
  stopped: boolean;
}

const JSON_TYPE = 'application/json';

export class AmqpTransport implements RpcTransport {
  readonly kind = 'amqp';
  readonly exchange: string;
  readonly #prefetch: number;
  readonly #connectTimeoutMs: number;
  readonly #connection: AmqpConnection;
  readonly #calls = new Map<string, PendingCall>();
  /** Casts awaiting their confirm, by message id: whether the broker returned them. */
  readonly #casts = new Map<string, { returned: boolean }>();
  readonly #servers = new Set<ServerState>();
  #replyQueue = '';
  #fanoutDeclared = new Set<string>();

  constructor(options: AmqpTransportOptions) {
    this.exchange = options.exchange ?? 'baton';
    this.#prefetch = options.prefetch ?? 128;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.#connection = new AmqpConnection(withHeartbeat(options.url), {
      setup: (session) => this.#setup(session),
      lost: (reason) => this.#lost(reason),
    });
  }

  /** Drops the broker connection as a network failure would (tests, operators); it comes back. */
  dropConnection(reason = 'dropped on request'): void {
    this.#connection.drop(reason);
  }

  async #setup(session: AmqpSession): Promise<void> {
    const { channel } = session;
    await channel.assertExchange(this.exchange, 'topic', { durable: true });
    const queue = replyQueue();
    await channel.assertQueue(queue, { exclusive: true, autoDelete: true });
    await channel.consume(queue, (msg) => this.#onReply(msg), { noAck: true });
    channel.on('return', (msg: ConsumeMessage) => this.#onReturn(msg));
    await channel.prefetch(this.#prefetch);
    this.#replyQueue = queue;
    this.#fanoutDeclared = new Set();
    for (const state of this.#servers) await this.#consume(session, state);
  }

  #lost(reason: string): void {
    for (const [id, call] of this.#calls) {
      clearTimeout(call.timer);
      this.#calls.delete(id);
      call.reject(
        new RpcConnectionLostError(call.dest, call.method, `broker connection lost (${reason})`),
      );
    }
  }

  #onReply(msg: ConsumeMessage | null): void {
    if (msg === null) return;
    const id = msg.properties.correlationId as string | undefined;
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined || id === undefined) return; // late reply to a call that gave up
    this.#calls.delete(id);
    clearTimeout(call.timer);
    let reply: RpcReply | string;
    try {
      reply = readRpcReply(JSON.parse(msg.content.toString('utf8')));
    } catch {
      reply = 'the reply is not JSON';
    }
    call.resolve(
      typeof reply === 'string'
        ? { ok: false, failure: { type: 'InvalidReply', message: reply } }
        : reply,
    );
  }

  #onReturn(msg: ConsumeMessage): void {
    const id = msg.properties.correlationId as string | undefined;
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call !== undefined && id !== undefined) {
      this.#calls.delete(id);
      clearTimeout(call.timer);
      call.reject(
        new NoRpcServerError(
          call.dest,
          call.method,
          `no queue bound to '${msg.fields.routingKey}'`,
        ),
      );
      return;
    }
    const cast = this.#casts.get(msg.properties.messageId as string);
    if (cast !== undefined) cast.returned = true;
  }

  async #session(dest: RpcDestination, method: string, deadline: number, timeoutMs: number) {
    try {
      return await this.#connection.ready(deadline);
    } catch (error) {
      throw new RpcTimeoutError(dest, method, timeoutMs, (error as Error).message);
    }
  }

  async call(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<RpcReply> {
    const deadline = Date.now() + timeoutMs;
    const body = Buffer.from(JSON.stringify(request));
    for (;;) {
      const session = await this.#session(dest, request.method, deadline, timeoutMs);
      const pending = this.#publishCall(session, dest, request.method, body, deadline, timeoutMs);
      // Undefined: the connection went before the message left; wait for the next one.
      if (pending !== undefined) return pending;
    }
  }

  #publishCall(
    session: AmqpSession,
    dest: RpcDestination,
    method: string,
    body: Buffer,
    deadline: number,
    timeoutMs: number,
  ): Promise<RpcReply> | undefined {
    if (this.#connection.session !== session) return undefined;
    const id = randomUUID();
    const left = Math.max(1, deadline - Date.now());
    let registered: PendingCall | undefined;
    const reply = new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#calls.delete(id);
        reject(new RpcTimeoutError(dest, method, timeoutMs));
      }, left);
      registered = { resolve, reject, timer, dest, method };
      this.#calls.set(id, registered);
    });
    try {
      session.channel.publish(this.exchange, topicKey(dest.topic, dest.server), body, {
        correlationId: id,
        replyTo: this.#replyQueue,
        expiration: String(left),
        mandatory: true,
        contentType: JSON_TYPE,
      });
      return reply;
    } catch {
      this.#calls.delete(id);
      if (registered !== undefined) clearTimeout(registered.timer);
      return undefined;
    }
  }

  async cast(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const messageId = randomUUID();
    const body = Buffer.from(JSON.stringify(request));
    for (;;) {
      const session = await this.#session(dest, request.method, deadline, timeoutMs);
      const outcome = await this.#publishConfirmed(session, dest, messageId, body, deadline);
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
    messageId: string,
    body: Buffer,
    deadline: number,
  ): Promise<'confirmed' | 'returned' | 'nacked' | 'dropped' | 'timeout'> {
    let exchange = this.exchange;
    let key = topicKey(dest.topic, dest.server);
    try {
      if (dest.fanout) {
        exchange = fanoutExchange(dest.topic);
        key = '';
        if (!this.#fanoutDeclared.has(exchange)) {
          await session.channel.assertExchange(exchange, 'fanout', { durable: true });
          this.#fanoutDeclared.add(exchange);
        }
      }
    } catch {
      return 'dropped';
    }
    const entry = { returned: false };
    this.#casts.set(messageId, entry);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish('timeout'), Math.max(1, deadline - Date.now()));
      const finish = (outcome: 'confirmed' | 'returned' | 'nacked' | 'dropped' | 'timeout') => {
        clearTimeout(timer);
        this.#casts.delete(messageId);
        resolve(outcome);
      };
      try {
        session.channel.publish(
          exchange,
          key,
          body,
          { messageId, persistent: true, mandatory: true, contentType: JSON_TYPE },
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

  async listen(target: RpcListenTarget, handler: RpcRequestHandler): Promise<RpcListener> {
    const state: ServerState = {
      target,
      handler,
      inFlight: new Set(),
      generation: 0,
      consumerTags: [],
      stopped: false,
    };
    this.#servers.add(state);
    try {
      const session = await this.#connection.ready(Date.now() + this.#connectTimeoutMs);
      await this.#consume(session, state);
    } catch (error) {
      this.#servers.delete(state);
      throw new RpcError(`cannot listen on topic '${target.topic}': ${(error as Error).message}`);
    }
    return { stop: () => this.#stopServer(state) };
  }

  async #consume(session: AmqpSession, state: ServerState): Promise<void> {
    if (state.generation === session.generation || state.stopped) return;
    state.generation = session.generation;
    const { channel } = session;
    const { topic, server } = state.target;
    const fanout = fanoutExchange(topic);
    const queues = [topicKey(topic), topicKey(topic, server)];
    for (const queue of queues) {
      await channel.assertQueue(queue, { durable: true });
      await channel.bindQueue(queue, this.exchange, queue);
    }
    await channel.assertExchange(fanout, 'fanout', { durable: true });
    const broadcast = fanoutQueue(topic);
    await channel.assertQueue(broadcast, { exclusive: true, autoDelete: true });
    await channel.bindQueue(broadcast, fanout, '');
    const tags: string[] = [];
    for (const queue of [...queues, broadcast]) {
      const { consumerTag } = await channel.consume(queue, (msg) =>
        this.#deliver(session, state, msg),
      );
      tags.push(consumerTag);
    }
    state.consumerTags = tags;
  }

  #deliver(session: AmqpSession, state: ServerState, msg: ConsumeMessage | null): void {
    if (msg === null) return;
    const { channel } = session;
    const settle = (requeue?: boolean) => {
      try {
        if (requeue) channel.nack(msg, false, true);
        else channel.ack(msg);
      } catch {
        // The channel is gone: the broker requeues what was not acknowledged.
      }
    };
    if (state.stopped) {
      settle(true);
      return;
    }
    const { replyTo, correlationId, expiration } = msg.properties;
    const expectsReply = typeof replyTo === 'string' && typeof correlationId === 'string';
    if (expectsReply) settle(); // calls: at most once
    const replyBy = Date.now() + (Number(expiration) || 60_000);
    let request: RpcRequest | string;
    try {
      request = readRpcRequest(JSON.parse(msg.content.toString('utf8')));
    } catch {
      request = 'the request is not JSON';
    }
    const running =
      typeof request === 'string'
        ? Promise.resolve<RpcReply>({
            ok: false,
            failure: { type: 'InvalidRequest', message: request },
          })
        : state.handler({ request, expectsReply }).catch((error: unknown) => ({
            ok: false as const,
            failure: failureOf(error),
          }));
    state.inFlight.add(running);
    void running.then(async (reply) => {
      if (expectsReply)
        await this.#reply(replyTo as string, correlationId as string, reply, replyBy);
      else settle(); // casts: acknowledged once handled, at least once
      state.inFlight.delete(running);
    });
  }

  /** Publishes a reply, waiting for a reconnection until the caller's deadline if need be. */
  async #reply(replyTo: string, correlationId: string, reply: RpcReply, by: number): Promise<void> {
    const body = Buffer.from(JSON.stringify(reply));
    for (let attempt = 0; attempt < 3; attempt++) {
      let session: AmqpSession;
      try {
        session = await this.#connection.ready(by);
      } catch {
        return; // the caller has timed out by now
      }
      try {
        session.channel.publish('', replyTo, body, { correlationId, contentType: JSON_TYPE });
        return;
      } catch {
        // closed under us; try the next connection
      }
    }
  }

  async #stopServer(state: ServerState): Promise<void> {
    if (state.stopped) return;
    state.stopped = true;
    this.#servers.delete(state);
    const session = this.#connection.session;
    if (session !== undefined && session.generation === state.generation) {
      for (const tag of state.consumerTags) await session.channel.cancel(tag).catch(() => {});
    }
    await Promise.allSettled([...state.inFlight]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#servers].map((state) => this.#stopServer(state)));
    await this.#connection.close();
    this.#lost('transport closed');
  }
}
