/**
 * What a transport carries, already serialized (JSON values only): a
 * request naming the method, the version it was built for, its named
 * arguments and the caller's context, and a reply holding a result or a
 * failure.
 */
import type { WireFailure } from './wire-errors.ts';

/** oslo.messaging's request context (request id, user, …): JSON values by name. */
export type RpcContext = Readonly<Record<string, unknown>>;

/** A request as it travels: method, namespace, version, arguments and context. */
export interface RpcRequest {
  readonly method: string;
  /** The RPC API version the client built this request for. */
  readonly version: string;
  /** Endpoints can be grouped in namespaces; null is the default one. */
  readonly namespace: string | null;
  readonly args: Record<string, unknown>;
  /** The caller's context, when it gave one (not carried by the http transport). */
  readonly context?: RpcContext;
}

/** A reply: a result or a failure. */
export type RpcReply =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly failure: WireFailure };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads a request that arrived as JSON; a description of the problem when it is not one. */
export function readRpcRequest(value: unknown): RpcRequest | string {
  if (!isObject(value)) return 'a request must be a JSON object';
  const { method, version, namespace, args, context } = value;
  if (typeof method !== 'string' || method === '') return 'method must be a non-empty string';
  if (typeof version !== 'string') return 'version must be a string';
  if (namespace !== null && namespace !== undefined && typeof namespace !== 'string')
    return 'namespace must be a string or null';
  if (!isObject(args)) return 'args must be an object';
  if (context !== undefined && !isObject(context)) return 'context must be an object';
  return {
    method,
    version,
    namespace: namespace ?? null,
    args,
    ...(context === undefined ? {} : { context }),
  };
}
