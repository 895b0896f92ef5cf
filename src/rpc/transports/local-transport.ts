/**
 * In-process transport, for tests and single-process runs. Transports on one
 * LocalBus reach each other's listeners. Messages are copied through JSON
 * both ways, so what works here also survives a real wire.
 */
import { NoRpcServerError, type RpcDestination, RpcTimeoutError } from '../errors.ts';
import type { RpcReply, RpcRequest } from '../message.ts';
import type { RpcListener, RpcListenTarget, RpcRequestHandler, RpcTransport } from './transport.ts';

interface LocalListener {
  readonly target: RpcListenTarget;
  readonly handler: RpcRequestHandler;
  stopped: boolean;
}

/** The in-process bus that local transports share. */
export class LocalBus {
  readonly listeners: LocalListener[] = [];
  #next = 0;

  /** The listeners a destination reaches (all of them for a fanout). */
  route(dest: RpcDestination): LocalListener[] {
    const matching = this.listeners.filter(
      (l) =>
        !l.stopped &&
        l.target.topic === dest.topic &&
        (dest.server === undefined || l.target.server === dest.server),
    );
    if (dest.fanout || matching.length <= 1) return matching;
    this.#next = (this.#next + 1) % matching.length;
    return [matching[this.#next] as LocalListener];
  }
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** RPC within one process, for tests and embedded use. */
export class LocalTransport implements RpcTransport {
  readonly kind = 'local';
  readonly bus: LocalBus;
  readonly #mine = new Set<LocalListener>();
  readonly #inFlight = new Map<LocalListener, Set<Promise<unknown>>>();

  constructor(bus: LocalBus = new LocalBus()) {
    this.bus = bus;
  }

  /** Sends a request and waits for its reply. */
  call(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<RpcReply> {
    const [listener] = this.bus.route(dest);
    if (listener === undefined)
      return Promise.reject(new NoRpcServerError(dest, request.method, 'no server listening'));
    return new Promise<RpcReply>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new RpcTimeoutError(dest, request.method, timeoutMs)),
        timeoutMs,
      );
      this.#run(listener, copy(request), true).then(
        (reply) => {
          clearTimeout(timer);
          resolve(copy(reply));
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** Sends a request without waiting for a reply. */
  async cast(dest: RpcDestination, request: RpcRequest): Promise<void> {
    const listeners = this.bus.route(dest);
    if (listeners.length === 0)
      throw new NoRpcServerError(dest, request.method, 'no server listening');
    for (const listener of listeners) {
      const message = copy(request);
      setImmediate(() => void this.#run(listener, message, false).catch(() => {}));
    }
  }

  #run(listener: LocalListener, request: RpcRequest, expectsReply: boolean): Promise<RpcReply> {
    const running = listener.handler({ request, expectsReply });
    const set = this.#inFlight.get(listener) ?? new Set();
    this.#inFlight.set(listener, set);
    set.add(running);
    void running.finally(() => set.delete(running)).catch(() => {});
    return running;
  }

  /** Starts taking requests for a target. */
  async listen(target: RpcListenTarget, handler: RpcRequestHandler): Promise<RpcListener> {
    const listener: LocalListener = { target, handler, stopped: false };
    this.bus.listeners.push(listener);
    this.#mine.add(listener);
    return { stop: () => this.#stop(listener) };
  }

  async #stop(listener: LocalListener): Promise<void> {
    listener.stopped = true;
    const index = this.bus.listeners.indexOf(listener);
    if (index >= 0) this.bus.listeners.splice(index, 1);
    this.#mine.delete(listener);
    await Promise.allSettled([...(this.#inFlight.get(listener) ?? [])]);
    this.#inFlight.delete(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#mine].map((listener) => this.#stop(listener)));
  }
}
