/**
 * The serving half of the amqp transport: a listening server consumes its
 * topic's shared queue, its own `<topic>.<server>` queue and a queue on the
 * topic's fanout exchange (amqp-topology.ts), reads each message in
 * oslo.messaging's format (amqp-wire.ts) and answers calls on the caller's
 * reply queue.
 *
 * - Calls are acknowledged when taken (at most once, as oslo's RPC listener
 *   does); casts once handled (at least once: a server that dies mid-cast
 *   gets it redelivered). A message whose `_unique_id` this server took
 *   among its last 16 is dropped, as oslo drops duplicates.
 * - A message that cannot be read is logged with the reason and, when its
 *   reply address can be read, answered with a failure; never dropped
 *   silently.
 * - A caller that asked for call monitoring (`_timeout`, seconds) gets a
 *   keep-alive every half of it while its call runs, as from oslo's server.
 * - A reply whose connection dropped is published on the next one if the
 *   caller's deadline (the request's expiration) has not passed.
 */
import type { ConsumeMessage } from 'amqplib';
import type { RpcReply } from '../message.ts';
import type { RpcLogger } from '../observer.ts';
import { failureOf } from '../wire-errors.ts';
import type { AmqpConnection, AmqpSession } from './amqp-connection.ts';
import {
  type AmqpDurability,
  FANOUT_EXCHANGE_FLAGS,
  fanoutExchange,
  fanoutQueue,
  PRIVATE_QUEUE_FLAGS,
  topicFlags,
  topicKey,
} from './amqp-topology.ts';
import {
  decodeRequest,
  encodeKeepAlive,
  encodeReply,
  JSON_CONTENT,
  type ReplyAddress,
  unreadableRequestFailure,
} from './amqp-wire.ts';
import type { RpcListenTarget, RpcRequestHandler } from './transport.ts';

/** As oslo's duplicate check (amqp.py, _MsgIdCache). */
const DUPLICATE_WINDOW = 16;
/** A reply's deadline when the request had no expiration (oslo's rpc_response_timeout). */
const DEFAULT_REPLY_WINDOW_MS = 60_000;

/** Where a message came from, for the log. */
const where = (msg: ConsumeMessage) =>
  `${msg.fields.exchange || '(default)'}/${msg.fields.routingKey}`;

export interface AmqpServingOptions {
  readonly connection: AmqpConnection;
  readonly exchange: string;
  readonly durability: AmqpDurability;
  readonly logger: RpcLogger;
}

interface ServerState {
  readonly target: RpcListenTarget;
  readonly handler: RpcRequestHandler;
  readonly inFlight: Set<Promise<unknown>>;
  readonly recent: string[];
  generation: number;
  consumerTags: string[];
  stopped: boolean;
}

export class AmqpServing {
  readonly #o: AmqpServingOptions;
  readonly #servers = new Set<ServerState>();

  constructor(options: AmqpServingOptions) {
    this.#o = options;
  }

  /** Starts consuming for a server on the given (live) session; `stop` ends it. */
  async add(
    session: AmqpSession,
    target: RpcListenTarget,
    handler: RpcRequestHandler,
  ): Promise<() => Promise<void>> {
    const state: ServerState = {
      target,
      handler,
      inFlight: new Set(),
      recent: [],
      generation: 0,
      consumerTags: [],
      stopped: false,
    };
    this.#servers.add(state);
    try {
      await this.#consume(session, state);
    } catch (error) {
      this.#servers.delete(state);
      throw error;
    }
    return () => this.#stop(state);
  }

  /** On a new connection: declares and consumes again for every server. */
  async resume(session: AmqpSession): Promise<void> {
    for (const state of this.#servers) await this.#consume(session, state);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#servers].map((state) => this.#stop(state)));
  }

  async #consume(session: AmqpSession, state: ServerState): Promise<void> {
    if (state.generation === session.generation || state.stopped) return;
    state.generation = session.generation;
    const { channel } = session;
    const { topic, server } = state.target;
    const queues = [topicKey(topic), topicKey(topic, server)];
    for (const queue of queues) {
      await channel.assertQueue(queue, topicFlags(this.#o.durability));
      await channel.bindQueue(queue, this.#o.exchange, queue);
    }
    const fanout = fanoutExchange(topic);
    await channel.assertExchange(fanout, 'fanout', FANOUT_EXCHANGE_FLAGS);
    const broadcast = fanoutQueue(topic);
    await channel.assertQueue(broadcast, PRIVATE_QUEUE_FLAGS);
    await channel.bindQueue(broadcast, fanout, topic);
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
    const replyBy = Date.now() + (Number(msg.properties.expiration) || DEFAULT_REPLY_WINDOW_MS);
    const decoded = decodeRequest(msg.content, msg.properties.contentType);
    if (!decoded.ok) {
      settle();
      const answer = decoded.reply === undefined ? 'dropped' : 'answered with a failure';
      this.#o.logger.warn(
        { transport: 'amqp', origin: where(msg), problem: decoded.problem },
        `unreadable RPC message on ${where(msg)}: ${decoded.problem}; ${answer}`,
      );
      if (decoded.reply !== undefined)
        void this.#reply(
          decoded.reply,
          { ok: false, failure: unreadableRequestFailure(decoded.problem) },
          replyBy,
        );
      return;
    }
    const { request, reply, uniqueId, monitorSeconds } = decoded;
    if (uniqueId !== undefined) {
      if (state.recent.includes(uniqueId)) {
        settle();
        this.#o.logger.warn(
          { transport: 'amqp', origin: where(msg), unique_id: uniqueId, method: request.method },
          `duplicate RPC message ${uniqueId} ('${request.method}') on ${where(msg)} dropped`,
        );
        return;
      }
      state.recent.push(uniqueId);
      if (state.recent.length > DUPLICATE_WINDOW) state.recent.shift();
    }
    if (reply !== undefined) settle(); // calls: at most once
    // oslo's watchdog: every int(_timeout) / 2 seconds, none below one second.
    const interval = Math.trunc(monitorSeconds ?? 0) / 2;
    const keepAlive =
      reply !== undefined && interval >= 1
        ? setInterval(() => this.#keepAlive(reply), interval * 1000)
        : undefined;
    const running = state
      .handler({ request, expectsReply: reply !== undefined })
      .catch((error: unknown): RpcReply => ({ ok: false, failure: failureOf(error) }));
    state.inFlight.add(running);
    void running.then(async (answer) => {
      clearInterval(keepAlive);
      if (reply !== undefined) await this.#reply(reply, answer, replyBy);
      else settle(); // casts: acknowledged once handled, at least once
      state.inFlight.delete(running);
    });
  }

  #keepAlive(to: ReplyAddress): void {
    const session = this.#o.connection.session;
    try {
      session?.channel.publish('', to.replyQ, encodeKeepAlive(to.msgId), JSON_CONTENT);
    } catch {
      // Best effort: the caller's own timeout still holds.
    }
  }

  /** Publishes a reply, waiting for a reconnection until the caller's deadline if need be. */
  async #reply(to: ReplyAddress, reply: RpcReply, by: number): Promise<void> {
    const body = encodeReply(to.msgId, reply);
    for (let attempt = 0; attempt < 3; attempt++) {
      let session: AmqpSession;
      try {
        session = await this.#o.connection.ready(by);
      } catch {
        return; // the caller has timed out by now
      }
      try {
        session.channel.publish('', to.replyQ, body, JSON_CONTENT);
        return;
      } catch {
        // closed under us; try the next connection
      }
    }
  }

  async #stop(state: ServerState): Promise<void> {
    if (state.stopped) return;
    state.stopped = true;
    this.#servers.delete(state);
    const session = this.#o.connection.session;
    if (session !== undefined && session.generation === state.generation) {
      for (const tag of state.consumerTags) await session.channel.cancel(tag).catch(() => {});
    }
    await Promise.allSettled([...state.inFlight]);
  }
}
