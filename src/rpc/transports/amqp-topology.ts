/**
 * Names on the broker, in the shape oslo.messaging's rabbit driver uses: one
 * topic exchange per service (its "control exchange"), a shared queue per
 * topic (any server), a queue per server of the topic, a fanout exchange per
 * topic with one queue per listening server, and a reply queue per client
 * connection. Pure.
 */
import { randomUUID } from 'node:crypto';

export interface AmqpTopology {
  /** The service's topic exchange; routing keys are `<topic>` and `<topic>.<server>`. */
  readonly exchange: string;
}

/** Routing key and queue name for a topic (any server) or one server of it. */
export function topicKey(topic: string, server?: string): string {
  return server === undefined ? topic : `${topic}.${server}`;
}

export function fanoutExchange(topic: string): string {
  return `${topic}_fanout`;
}

/** One per listening server; exclusive, deleted with its connection. */
export function fanoutQueue(topic: string): string {
  return `${topic}_fanout_${randomUUID().replaceAll('-', '')}`;
}

/** One per client connection; exclusive, deleted with it. */
export function replyQueue(): string {
  return `reply_${randomUUID().replaceAll('-', '')}`;
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
