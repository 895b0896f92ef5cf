/**
 * The contract every transport (local, http, amqp) meets; the client and
 * server are written against it only. Payloads are JSON values.
 *
 * - `call` resolves with the server's reply, or rejects with RpcTimeoutError
 *   (naming topic, server, method), NoRpcServerError (nothing was sent) or
 *   RpcConnectionLostError (sent, outcome unknown). It never hangs past its
 *   timeout.
 * - `cast` resolves once the message is accepted (by the server or the
 *   broker), and rejects otherwise: a cast is never silently lost.
 * - `listen` delivers requests for a topic, for one server of it, and its
 *   broadcasts.
 */
import type { RpcDestination } from '../errors.ts';
import type { RpcReply, RpcRequest } from '../message.ts';

/** What a server listens for: a topic, and its own server name. */
export interface RpcListenTarget {
  readonly topic: string;
  /** This server's name (its host); requests addressed to it come here. */
  readonly server: string;
}

export interface IncomingRpc {
  readonly request: RpcRequest;
  /** False for casts: the reply is dropped. */
  readonly expectsReply: boolean;
}

export type RpcRequestHandler = (incoming: IncomingRpc) => Promise<RpcReply>;

/** A listening server. */
export interface RpcListener {
  /** Stops taking requests, then waits for the ones being handled. */
  stop(): Promise<void>;
}

/** Carries requests and replies between RPC clients and servers. */
export interface RpcTransport {
  /** `local`, `http` or `amqp`. */
  readonly kind: string;
  /** Sends a request and waits for its reply. */
  call(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<RpcReply>;
  /** Sends a request without waiting for a reply. */
  cast(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<void>;
  /** Starts taking requests for a target. */
  listen(target: RpcListenTarget, handler: RpcRequestHandler): Promise<RpcListener>;
  /** Stops listeners and closes connections. */
  close(): Promise<void>;
}
