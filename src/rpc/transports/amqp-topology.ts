/**
 * Names and flags on the broker, as oslo.messaging's rabbit driver (14.x,
 * impl_rabbit.py) declares them, so a Baton and a Python server can share a
 * topic's queues and either can declare them first (a flag that differs is
 * a 406 PRECONDITION_FAILED for whoever comes second):
 *
 * - the service's topic exchange (oslo's control_exchange, Baton's
 *   `rpc_exchange`): durable and auto-delete as configured (oslo's
 *   amqp_durable_queues and amqp_auto_delete, both false by default);
 * - queues `<topic>` (any server) and `<topic>.<server>`, bound to it with
 *   those routing keys, with the same two flags and no arguments;
 * - a fanout exchange `<topic>_fanout`, never durable, auto-deleted;
 * - one `<topic>_fanout_<uuid hex>` queue per listening server and one
 *   `reply_<uuid hex>` queue per client connection (replies come through the
 *   default exchange, routed by the queue's name). Only their owner
 *   declares these; Baton makes them exclusive, so they go with its
 *   connection (oslo keeps them for 30 minutes unused, `x-expires`). Pure.
 */
import { randomUUID } from 'node:crypto';

/** oslo's amqp_durable_queues and amqp_auto_delete. */
export interface AmqpDurability {
  readonly durable: boolean;
  readonly autoDelete: boolean;
}

export const OSLO_DURABILITY: AmqpDurability = { durable: false, autoDelete: false };

/** For the topic exchange and the topic queues. */
export function topicFlags(durability: AmqpDurability) {
  return { durable: durability.durable, autoDelete: durability.autoDelete };
}

export const FANOUT_EXCHANGE_FLAGS = { durable: false, autoDelete: true } as const;

/** Per connection (fanout and reply queues): gone with it. */
export const PRIVATE_QUEUE_FLAGS = { exclusive: true, durable: false, autoDelete: true } as const;

/** Routing key and queue name for a topic (any server) or one server of it. */
export function topicKey(topic: string, server?: string): string {
  return server === undefined ? topic : `${topic}.${server}`;
}

export function fanoutExchange(topic: string): string {
  return `${topic}_fanout`;
}

const hex = () => randomUUID().replaceAll('-', '');

export function fanoutQueue(topic: string): string {
  return `${topic}_fanout_${hex()}`;
}

export function replyQueue(): string {
  return `reply_${hex()}`;
}

/**
 * Connection URL with a heartbeat (10 s unless the URL sets one), so a dead
 * broker or a cut network is noticed within two heartbeats.
 */
export function withHeartbeat(url: string, seconds = 10): string {
  const parsed = new URL(url);
  if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', String(seconds));
  return parsed.toString();
}
