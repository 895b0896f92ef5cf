/**
 * What the RPC layer tells a service about its traffic, without knowing what the service
 * does with it: an observer (metrics, debug logs) told of every call and cast when it ends,
 * on the client side and on the server side, and a logger for what the transports have to
 * report (an unreadable message, a duplicate dropped). The service's composition root
 * supplies both; src/rpc imports no metrics or logging library.
 */
import {
  InvalidArgumentsError,
  NoRpcServerError,
  RpcConnectionLostError,
  RpcTimeoutError,
  RpcVersionCapError,
  UnknownMethodError,
  UnsupportedVersionError,
} from './errors.ts';
import type { RpcReply } from './message.ts';

/**
 * How an RPC ended, few enough values to be a metric label:
 * - `ok`: the method returned (or the cast was accepted);
 * - `error`: the method raised (the caller gets the remote error);
 * - `unsupported_version`, `unknown_method`, `invalid_arguments`: the server refused the request;
 * - `capped`: the client refused to send above its version cap (nothing was sent);
 * - `timeout`, `no_server` (nothing was sent), `connection_lost` (outcome unknown);
 * - `failed`: anything else (a local error before or while sending).
 */
export type RpcOutcome =
  | 'ok'
  | 'error'
  | 'unsupported_version'
  | 'unknown_method'
  | 'invalid_arguments'
  | 'capped'
  | 'timeout'
  | 'no_server'
  | 'connection_lost'
  | 'failed';

/** One RPC call that ended, as observers see it. */
export interface RpcCallEvent {
  /** `client`: this process sent it; `server`: this process handled it. */
  readonly side: 'client' | 'server';
  /** A call waits for its result; a cast does not. */
  readonly kind: 'call' | 'cast';
  readonly topic: string;
  readonly method: string;
  /** The version the request was built for. */
  readonly version: string;
  readonly outcome: RpcOutcome;
  /** From the first byte sent (client) or the request's arrival (server) to its end. */
  readonly seconds: number;
  /** The failure's type (`NodeLocked`, `RpcTimeoutError`, …) when the outcome is not `ok`. */
  readonly errorType?: string;
  readonly errorMessage?: string;
}

/** Told of every call that ends (for metrics and logs). */
export interface RpcObserver {
  /** A call ended. */
  rpcEnded(event: RpcCallEvent): void;
}

/**
 * A structured logger, as pino's: fields first, then the message. Transports report here
 * what they cannot hand to a caller (an unreadable message, a duplicate dropped).
 */
export interface RpcLogger {
  /** Logs at debug level. */
  debug(fields: Readonly<Record<string, unknown>>, message: string): void;
  /** Logs at info level. */
  info(fields: Readonly<Record<string, unknown>>, message: string): void;
  /** Logs at warn level. */
  warn(fields: Readonly<Record<string, unknown>>, message: string): void;
  /** Logs at error level. */
  error(fields: Readonly<Record<string, unknown>>, message: string): void;
}

/** Without a service logger: warnings and errors on stderr, one line each, the rest dropped. */
export function stderrRpcLogger(prefix: string): RpcLogger {
  const write = (_fields: unknown, message: string) => {
    process.stderr.write(`${prefix}: ${message}\n`);
  };
  return { debug: () => {}, info: () => {}, warn: write, error: write };
}

const REFUSALS: Readonly<Record<string, RpcOutcome>> = {
  [UnsupportedVersionError.name]: 'unsupported_version',
  [UnknownMethodError.name]: 'unknown_method',
  [InvalidArgumentsError.name]: 'invalid_arguments',
};

/** The outcome of a reply a server sent (the failure's type is on the wire). */
export function outcomeOfReply(reply: RpcReply): RpcOutcome {
  if (reply.ok) return 'ok';
  return REFUSALS[reply.failure.type] ?? 'error';
}

/** The outcome of an error a client got back (rebuilt from the wire) or raised itself. */
export function outcomeOfClientError(error: unknown, remote: boolean): RpcOutcome {
  if (error instanceof RpcVersionCapError) return 'capped';
  if (error instanceof RpcTimeoutError) return 'timeout';
  if (error instanceof NoRpcServerError) return 'no_server';
  if (error instanceof RpcConnectionLostError) return 'connection_lost';
  if (remote) return REFUSALS[(error as Error).name] ?? 'error';
  return 'failed';
}
