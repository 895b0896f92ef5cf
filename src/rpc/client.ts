/**
 * The calling side (oslo.messaging's RPCClient): a topic, the version
 * requests are built for, and an optional version cap from the release pin.
 * `prepare` returns a copy with a different version, server or timeout.
 * Sending above the cap fails before anything is sent; method code asks
 * `canSendVersion` and builds a request an older server understands.
 */
import { RemoteError, type RpcDestination, RpcError, RpcVersionCapError } from './errors.ts';
import type { RpcContext, RpcRequest } from './message.ts';
import { outcomeOfClientError, type RpcObserver } from './observer.ts';
import { assertRpcVersion, rpcVersionWithin } from './rpc-version.ts';
import { PLAIN_SERIALIZER, type RpcSerializer } from './serializer.ts';
import type { RpcTransport } from './transports/transport.ts';
import { BUILT_IN_REMOTE_ERRORS, errorFromFailure, type RemoteErrorTypes } from './wire-errors.ts';

/** oslo.messaging's rpc_response_timeout. */
export const DEFAULT_RPC_TIMEOUT_MS = 60_000;

export interface RpcClientOptions {
  readonly transport: RpcTransport;
  readonly topic: string;
  /** The version requests are built for unless `prepare` says otherwise. */
  readonly version: string;
  /**
   * The highest version this client may send (the caps in force); none: no cap. A function is
   * asked at each send, so caps refreshed while the process runs (SIGHUP) apply at once.
   */
  readonly versionCap?: string | (() => string | undefined);
  readonly namespace?: string | null;
  readonly server?: string;
  readonly timeoutMs?: number;
  readonly serializer?: RpcSerializer;
  /** Remote error types rebuilt as themselves (besides the built-in RPC errors). */
  readonly remoteErrors?: RemoteErrorTypes;
  /** Casts go to every server of the topic. */
  readonly fanout?: boolean;
  /** Sent with every request (oslo's `ctxt`: request id, user, …). */
  readonly context?: RpcContext;
  /** Told of every call and cast when it ends (metrics, debug logs); kept by `prepare`. */
  readonly observer?: RpcObserver;
}

export interface PrepareOptions {
  readonly version?: string;
  /** Send to this server (host) of the topic only. */
  readonly server?: string;
  readonly timeoutMs?: number;
  readonly namespace?: string | null;
  /** Casts go to every server of the topic. */
  readonly fanout?: boolean;
  readonly context?: RpcContext;
}

interface ClientState {
  readonly transport: RpcTransport;
  readonly topic: string;
  readonly version: string;
  readonly versionCap: (() => string | undefined) | undefined;
  readonly namespace: string | null;
  readonly server: string | undefined;
  readonly fanout: boolean;
  readonly context: RpcContext | undefined;
  readonly timeoutMs: number;
  readonly serializer: RpcSerializer;
  readonly remoteErrors: RemoteErrorTypes;
  readonly observer: RpcObserver | undefined;
}

export class RpcClient {
  readonly #s: ClientState;

  constructor(options: RpcClientOptions) {
    assertRpcVersion(options.version, 'RPC version');
    const cap = options.versionCap;
    if (typeof cap === 'string') assertRpcVersion(cap, 'RPC version cap');
    this.#s = {
      transport: options.transport,
      topic: options.topic,
      version: options.version,
      versionCap: typeof cap === 'string' ? () => cap : cap,
      namespace: options.namespace ?? null,
      server: options.server,
      fanout: options.fanout ?? false,
      context: options.context,
      timeoutMs: options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
      serializer: options.serializer ?? PLAIN_SERIALIZER,
      remoteErrors: { ...options.remoteErrors, ...BUILT_IN_REMOTE_ERRORS },
      observer: options.observer,
    };
  }

  get topic(): string {
    return this.#s.topic;
  }
  get version(): string {
    return this.#s.version;
  }
  get versionCap(): string | undefined {
    return this.#cap();
  }

  /** The cap now (a function cap is asked each time, and checked). */
  #cap(): string | undefined {
    const cap = this.#s.versionCap?.();
    if (cap !== undefined) assertRpcVersion(cap, 'RPC version cap');
    return cap;
  }

  /**
   * A client with the same transport, these options replacing its own (version, server,
   * namespace, fanout, timeout, context).
   */
  prepare(options: PrepareOptions): RpcClient {
    const s = this.#s;
    return new RpcClient({
      ...s,
      version: options.version ?? s.version,
      server: options.server ?? s.server,
      timeoutMs: options.timeoutMs ?? s.timeoutMs,
      namespace: options.namespace === undefined ? s.namespace : options.namespace,
      fanout: options.fanout ?? s.fanout,
      context: options.context ?? s.context,
    });
  }

  /** Whether `version` is within the cap (same major, minor at most the cap's). */
  canSendVersion(version: string): boolean {
    const cap = this.#cap();
    return cap === undefined || rpcVersionWithin(version, cap);
  }

  /** Request/response; the result arrives deserialized (objects at their latest version). */
  async call(method: string, args: Record<string, unknown> = {}): Promise<unknown> {
    const s = this.#s;
    const started = performance.now();
    let remote = false;
    try {
      if (s.fanout) throw new RpcError(`RPC call '${method}': a fanout client can only cast`);
      const request = this.#request(method, args);
      const reply = await s.transport.call(this.#destination(), request, s.timeoutMs);
      if (!reply.ok) {
        remote = true;
        throw errorFromFailure(reply.failure, s.remoteErrors);
      }
      const result = s.serializer.deserializeEntity(reply.result);
      this.#observe('call', method, started);
      return result;
    } catch (error) {
      this.#observe('call', method, started, error, remote);
      throw error;
    }
  }

  /** One-way; resolves once the transport has accepted the message, rejects if it could not. */
  async cast(method: string, args: Record<string, unknown> = {}): Promise<void> {
    const started = performance.now();
    try {
      const request = this.#request(method, args);
      await this.#s.transport.cast(this.#destination(), request, this.#s.timeoutMs);
      this.#observe('cast', method, started);
    } catch (error) {
      this.#observe('cast', method, started, error, false);
      throw error;
    }
  }

  #observe(
    kind: 'call' | 'cast',
    method: string,
    started: number,
    error?: unknown,
    remote = false,
  ): void {
    const s = this.#s;
    if (s.observer === undefined) return;
    const failed = error !== undefined;
    s.observer.rpcEnded({
      side: 'client',
      kind,
      topic: s.topic,
      method,
      version: s.version,
      outcome: failed ? outcomeOfClientError(error, remote) : 'ok',
      seconds: (performance.now() - started) / 1000,
      ...(failed
        ? {
            errorType:
              error instanceof RemoteError
                ? error.remoteType
                : error instanceof Error
                  ? error.name
                  : 'Error',
            errorMessage: error instanceof Error ? error.message : String(error),
          }
        : {}),
    });
  }

  #destination(): RpcDestination {
    const s = this.#s;
    if (s.fanout) return { topic: s.topic, fanout: true };
    return s.server === undefined ? { topic: s.topic } : { topic: s.topic, server: s.server };
  }

  #request(method: string, args: Record<string, unknown>): RpcRequest {
    const s = this.#s;
    const cap = this.#cap();
    if (cap !== undefined && !rpcVersionWithin(s.version, cap))
      throw new RpcVersionCapError(method, s.version, cap);
    if (typeof method !== 'string' || method === '')
      throw new RpcError('an RPC method name must be a non-empty string');
    return {
      method,
      version: s.version,
      namespace: s.namespace,
      args: s.serializer.serializeEntity(args) as Record<string, unknown>,
      ...(s.context === undefined ? {} : { context: s.context }),
    };
  }
}
