/**
 * RPC errors. The first group is raised by a server and crosses the wire
 * (wire-errors.ts rebuilds them on the client); the second is raised on the
 * client side and does not travel, except a timeout a server met in its own
 * calls. Each carries its facts as fields.
 */

export class RpcError extends Error {
  override name = 'RpcError';
}

/** Anything that can cross the wire says which facts go with it. */
export interface WireError {
  /** The facts that travel with the error. */
  wireData(): Record<string, unknown>;
}

/** The request's major differs from the endpoint's, or its minor is newer. */
export class UnsupportedVersionError extends RpcError implements WireError {
  override name = 'UnsupportedVersionError';
  readonly method: string;
  readonly requested: string;
  /** The versions the server's endpoints serve (for that namespace). */
  readonly served: readonly string[];
  constructor(method: string, requested: string, served: readonly string[]) {
    // An oslo.messaging server does not say what it serves: the list is empty then.
    super(
      served.length === 0
        ? `RPC method '${method}' at version ${requested} is not supported by the server`
        : `RPC method '${method}' at version ${requested} is not supported; the server serves ${served.join(', ')}`,
    );
    this.method = method;
    this.requested = requested;
    this.served = served;
  }
  /** The facts that travel with the error. */
  wireData() {
    return { method: this.method, requested: this.requested, served: this.served };
  }
}

export class UnknownMethodError extends RpcError implements WireError {
  override name = 'UnknownMethodError';
  readonly method: string;
  readonly namespace: string | null;
  constructor(method: string, namespace: string | null) {
    super(
      namespace === null
        ? `the server has no RPC method '${method}'`
        : `the server has no RPC method '${method}' in namespace '${namespace}'`,
    );
    this.method = method;
    this.namespace = namespace;
  }
  /** The facts that travel with the error. */
  wireData() {
    return { method: this.method, namespace: this.namespace };
  }
}

/** Missing or unknown arguments, or an argument that does not deserialize. */
export class InvalidArgumentsError extends RpcError implements WireError {
  override name = 'InvalidArgumentsError';
  readonly method: string;
  readonly reason: string;
  constructor(method: string, reason: string) {
    super(`bad arguments to RPC method '${method}': ${reason}`);
    this.method = method;
    this.reason = reason;
  }
  /** The facts that travel with the error. */
  wireData() {
    return { method: this.method, reason: this.reason };
  }
}

/** A server-side exception of a type the client does not know. */
export class RemoteError extends RpcError {
  override name = 'RemoteError';
  readonly remoteType: string;
  readonly remoteMessage: string;
  readonly data: Record<string, unknown>;
  constructor(remoteType: string, remoteMessage: string, data: Record<string, unknown> = {}) {
    super(`remote ${remoteType}: ${remoteMessage}`);
    this.remoteType = remoteType;
    this.remoteMessage = remoteMessage;
    this.data = data;
  }
}

// ---- raised on the client ----

/** Asked to send a version above the client's cap; nothing was sent. */
export class RpcVersionCapError extends RpcError {
  override name = 'RpcVersionCapError';
  readonly version: string;
  readonly cap: string;
  constructor(method: string, version: string, cap: string) {
    super(`RPC method '${method}' at version ${version} is above the version cap ${cap}`);
    this.version = version;
    this.cap = cap;
  }
}

/** Where a message was going, for error messages. */
export interface RpcDestination {
  readonly topic: string;
  /** A server (host) of the topic; undefined: any. */
  readonly server?: string;
  /** To every server of the topic (casts only). */
  readonly fanout?: boolean;
}

/** A destination, in words for a message. */
export function describeDestination(dest: RpcDestination): string {
  if (dest.fanout) return `topic '${dest.topic}' (all servers)`;
  return dest.server === undefined
    ? `topic '${dest.topic}' (any server)`
    : `topic '${dest.topic}' server '${dest.server}'`;
}

/**
 * Raised on the client when no answer came in time; it also crosses the wire when a
 * server's own call timed out (oslo.messaging sends its MessagingTimeout the same way).
 */
export class RpcTimeoutError extends RpcError implements WireError {
  override name = 'RpcTimeoutError';
  readonly topic: string;
  readonly server: string | undefined;
  readonly method: string;
  readonly timeoutMs: number;
  constructor(dest: RpcDestination, method: string, timeoutMs: number, detail?: string) {
    super(
      `RPC call '${method}' to ${describeDestination(dest)} timed out after ${timeoutMs} ms` +
        (detail ? ` (${detail})` : ''),
    );
    this.topic = dest.topic;
    this.server = dest.server;
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
  /** The facts that travel with the error. */
  wireData() {
    return {
      topic: this.topic,
      ...(this.server === undefined ? {} : { server: this.server }),
      method: this.method,
      timeoutMs: this.timeoutMs,
    };
  }
}

/**
 * The connection dropped after the message left: the server may or may not
 * have run it. Callers that retry must make the method safe to repeat.
 */
export class RpcConnectionLostError extends RpcError {
  override name = 'RpcConnectionLostError';
  readonly topic: string;
  readonly server: string | undefined;
  readonly method: string;
  constructor(dest: RpcDestination, method: string, reason: string) {
    super(
      `connection lost during RPC '${method}' to ${describeDestination(dest)}: ${reason}; ` +
        'it may or may not have run',
    );
    this.topic = dest.topic;
    this.server = dest.server;
    this.method = method;
  }
}

/** No server could take the message; it was not delivered anywhere. */
export class NoRpcServerError extends RpcError {
  override name = 'NoRpcServerError';
  readonly topic: string;
  readonly server: string | undefined;
  readonly method: string;
  constructor(dest: RpcDestination, method: string, reason: string) {
    super(`RPC '${method}' to ${describeDestination(dest)} not delivered: ${reason}`);
    this.topic = dest.topic;
    this.server = dest.server;
    this.method = method;
  }
}

/**
 * The server refused the client's credentials (http transport: a shared secret, a Keystone
 * token), or they could not be had; nothing ran. `status`: the server's answer (401, 403, or
 * 503 when it cannot check them now), 503 as well when the client could not get a token.
 */
export class RpcAuthenticationError extends RpcError {
  override name = 'RpcAuthenticationError';
  readonly status: number;
  constructor(message: string, status = 401) {
    super(message);
    this.status = status;
  }
}

/** A transport's configuration is unusable (unknown transport, bad URL). */
export class RpcConfigError extends RpcError {
  override name = 'RpcConfigError';
}
