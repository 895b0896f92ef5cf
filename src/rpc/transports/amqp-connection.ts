/**
 * One broker connection that comes back: on a drop (broker restart, cut
 * network, channel error) it tells its owner, then reconnects with
 * exponential backoff and jitter (100 ms doubling to 5 s) and runs the
 * owner's setup (declare queues, start consumers) on the new connection.
 * Until then `ready()` waits, bounded by the caller's deadline.
 */
import type { ChannelModel, ConfirmChannel } from 'amqplib';

export interface AmqpSession {
  readonly model: ChannelModel;
  /** Publisher confirms on; used for publishing and consuming. */
  readonly channel: ConfirmChannel;
  /** Increases with every new connection. */
  readonly generation: number;
}

export interface AmqpConnectionHooks {
  /** Runs on every new connection before it is handed out; a failure drops it and retries. */
  setup(session: AmqpSession): Promise<void>;
  /** The connection went away; everything tied to it is gone. */
  lost(reason: string): void;
}

const INITIAL_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;

export class NotConnectedError extends Error {
  override name = 'NotConnectedError';
}

export class AmqpConnection {
  readonly #url: string;
  readonly #hooks: AmqpConnectionHooks;
  #session: AmqpSession | undefined;
  #generation = 0;
  #closed = false;
  #attempt = 0;
  #lastError = 'not connected yet';
  #waiters = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #connecting: Promise<void> | undefined;

  constructor(url: string, hooks: AmqpConnectionHooks) {
    this.#url = url;
    this.#hooks = hooks;
  }

  get session(): AmqpSession | undefined {
    return this.#session;
  }

  get lastError(): string {
    return this.#lastError;
  }

  /** Connects once; rejects with the first failure (later drops reconnect on their own). */
  async start(): Promise<void> {
    this.#connecting ??= this.#connect();
    await this.#connecting;
    if (this.#session === undefined) throw new NotConnectedError(this.#lastError);
  }

  /** The live session, waiting up to `deadline` (epoch ms) for a reconnection. */
  async ready(deadline: number): Promise<AmqpSession> {
    while (this.#session === undefined) {
      if (this.#closed) throw new NotConnectedError('transport closed');
      const left = deadline - Date.now();
      if (left <= 0) throw new NotConnectedError(`not connected to the broker: ${this.#lastError}`);
      if (this.#timer === undefined) this.#connecting ??= this.#connect();
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.#waiters.add(done);
      });
    }
    return this.#session;
  }

  /** Drops the current connection as if the network failed (the owner sees `lost`). */
  drop(reason: string): void {
    const session = this.#session;
    if (session === undefined) return;
    this.#onLost(session, reason);
    void session.model.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const session = this.#session;
    this.#session = undefined;
    for (const wake of [...this.#waiters]) wake();
    if (session !== undefined) await session.model.close().catch(() => {});
  }

  async #connect(): Promise<void> {
    let model: ChannelModel | undefined;
    try {
      // Loaded on the first connection: a process on the http transport never pays for it.
      const { connect } = await import('amqplib');
      // Nagle's algorithm would hold small frames back ~40 ms behind delayed ACKs.
      model = await connect(this.#url, { noDelay: true });
      // At once, before anything else is awaited: amqplib emits 'error' before it closes a
      // connection whose socket failed, and an 'error' nobody listens to throws out of its
      // socket handler, so the connection would never close and its heartbeat timers would
      // run (and keep the process alive) forever. 'close' follows with the reason.
      model.on('error', () => {});
      const channel = await model.createConfirmChannel();
      channel.on('error', () => {});
      const session: AmqpSession = { model, channel, generation: ++this.#generation };
      const onClose = (error?: Error) =>
        this.#onLost(session, error?.message ?? 'connection closed');
      model.on('close', onClose);
      channel.on('close', () => {
        // A channel error leaves the connection up but useless: start over. When the
        // whole connection is going, its own 'close' (with the reason) comes first.
        setImmediate(() => {
          if (this.#session !== session) return;
          this.#onLost(session, 'channel closed by the broker');
          void model?.close().catch(() => {});
        });
      });
      await this.#hooks.setup(session);
      if (this.#closed) {
        await model.close().catch(() => {});
        return;
      }
      this.#session = session;
      this.#attempt = 0;
      for (const wake of [...this.#waiters]) wake();
    } catch (error) {
      this.#lastError = error instanceof Error ? error.message : String(error);
      await model?.close().catch(() => {});
      this.#scheduleReconnect();
    } finally {
      this.#connecting = undefined;
    }
  }

  #onLost(session: AmqpSession, reason: string): void {
    if (this.#session !== session) return;
    this.#session = undefined;
    this.#lastError = reason;
    this.#hooks.lost(reason);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#closed || this.#timer !== undefined) return;
    const base = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** this.#attempt++);
    const delay = base * (0.8 + Math.random() * 0.4);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#connecting ??= this.#connect();
    }, delay);
  }
}
