/**
 * The tolerant server side (the rolling-upgrade doc): a request is taken by an endpoint of
 * its namespace whose version has the same major and a minor at least the
 * request's, so older clients keep working (arguments added since are
 * optional). Anything else becomes a typed failure for the caller:
 * UnsupportedVersionError, UnknownMethodError, InvalidArgumentsError, or the
 * handler's own error.
 */
import { InvalidArgumentsError, UnknownMethodError, UnsupportedVersionError } from './errors.ts';
import type { RpcContext, RpcReply, RpcRequest } from './message.ts';
import { assertRpcVersion, isRpcVersion, rpcVersionWithin } from './rpc-version.ts';
import type { RpcSerializer } from './serializer.ts';
import { failureOf } from './wire-errors.ts';

/** A named argument: new arguments in a later minor version must be optional. */
export type RpcParam = 'required' | 'optional';

/** What a handler learns about its call. */
export interface RpcCallInfo {
  readonly method: string;
  /** The version the client built the request for: handlers may branch on it. */
  readonly version: string;
  readonly namespace: string | null;
  /** The caller's context (empty when it sent none). */
  readonly context: RpcContext;
}

/** A remote method: its parameters and its handler. */
export interface RpcMethod {
  readonly params: Readonly<Record<string, RpcParam>>;
  /** Handles a call with its checked arguments. */
  handle(args: Record<string, unknown>, call: RpcCallInfo): unknown;
}

/** A set of methods under one namespace and version. */
export interface RpcEndpoint {
  readonly namespace?: string | null;
  /** The version this endpoint serves, `X.Y`. */
  readonly version: string;
  readonly methods: Readonly<Record<string, RpcMethod>>;
}

const NO_CONTEXT: RpcContext = Object.freeze({});

/** Routes a request to the endpoint that serves its namespace and version. */
export class RpcDispatcher {
  readonly endpoints: readonly RpcEndpoint[];
  readonly serializer: RpcSerializer;

  constructor(endpoints: readonly RpcEndpoint[], serializer: RpcSerializer) {
    for (const endpoint of endpoints) assertRpcVersion(endpoint.version, 'endpoint version');
    this.endpoints = endpoints;
    this.serializer = serializer;
  }

  /** Never throws: every outcome is a reply. */
  async dispatch(request: RpcRequest): Promise<RpcReply> {
    try {
      const method = this.#find(request);
      const args = this.#arguments(request, method);
      const call: RpcCallInfo = {
        method: request.method,
        version: request.version,
        namespace: request.namespace,
        context: request.context ?? NO_CONTEXT,
      };
      const result = await method.handle(args, call);
      return { ok: true, result: this.serializer.serializeEntity(result ?? null) };
    } catch (error) {
      return { ok: false, failure: failureOf(error) };
    }
  }

  #find(request: RpcRequest): RpcMethod {
    const namespace = request.namespace ?? null;
    const served: string[] = [];
    let compatible = false;
    for (const endpoint of this.endpoints) {
      if ((endpoint.namespace ?? null) !== namespace) continue;
      served.push(endpoint.version);
      if (!isRpcVersion(request.version) || !rpcVersionWithin(request.version, endpoint.version))
        continue;
      compatible = true;
      if (Object.hasOwn(endpoint.methods, request.method)) {
        return endpoint.methods[request.method] as RpcMethod;
      }
    }
    if (compatible || served.length === 0) throw new UnknownMethodError(request.method, namespace);
    throw new UnsupportedVersionError(request.method, String(request.version), served);
  }

  #arguments(request: RpcRequest, method: RpcMethod): Record<string, unknown> {
    const given = request.args;
    if (given === null || typeof given !== 'object' || Array.isArray(given))
      throw new InvalidArgumentsError(
        request.method,
        'arguments must be an object of named values',
      );
    const unknown = Object.keys(given).filter((name) => !Object.hasOwn(method.params, name));
    if (unknown.length > 0)
      throw new InvalidArgumentsError(
        request.method,
        `unexpected argument(s) ${unknown.join(', ')}`,
      );
    const missing = Object.entries(method.params)
      .filter(([name, kind]) => kind === 'required' && !Object.hasOwn(given, name))
      .map(([name]) => name);
    if (missing.length > 0)
      throw new InvalidArgumentsError(request.method, `missing argument(s) ${missing.join(', ')}`);
    const args: Record<string, unknown> = {};
    for (const name of Object.keys(given)) {
      try {
        args[name] = this.serializer.deserializeEntity(given[name]);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new InvalidArgumentsError(request.method, `argument ${name}: ${reason}`);
      }
    }
    return args;
  }
}
