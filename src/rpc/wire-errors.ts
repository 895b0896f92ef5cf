/**
 * Errors crossing the wire. A server sends every failure as
 * `{type, message, data}`; a client rebuilds the types it knows (the built-in
 * RPC errors plus those an API registers, like Ironic's NodeLocked) and turns
 * any other into a RemoteError with the remote type and message. Never a hang,
 * never a bare string.
 */
import {
  InvalidArgumentsError,
  RemoteError,
  RpcTimeoutError,
  UnknownMethodError,
  UnsupportedVersionError,
  type WireError,
} from './errors.ts';

/** An error as it travels in a reply. */
export interface WireFailure {
  readonly type: string;
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

/** Rebuilds an error from its message and data. */
export type RemoteErrorFactory = (message: string, data: Record<string, unknown>) => Error;

/** The errors a client rebuilds from replies, by type name. */
export type RemoteErrorTypes = Readonly<Record<string, RemoteErrorFactory>>;

const str = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** The RPC errors every client rebuilds. */
export const BUILT_IN_REMOTE_ERRORS: RemoteErrorTypes = {
  UnsupportedVersionError: (_m, d) =>
    new UnsupportedVersionError(
      str(d.method),
      str(d.requested),
      Array.isArray(d.served) ? d.served.map(str) : [],
    ),
  UnknownMethodError: (_m, d) =>
    new UnknownMethodError(str(d.method), d.namespace == null ? null : str(d.namespace)),
  InvalidArgumentsError: (_m, d) => new InvalidArgumentsError(str(d.method), str(d.reason)),
  // A server's own call timed out: its message says where (its peer may not give the fields).
  RpcTimeoutError: (message, d) => {
    const dest =
      typeof d.server === 'string'
        ? { topic: str(d.topic ?? ''), server: d.server }
        : { topic: str(d.topic ?? '') };
    const error = new RpcTimeoutError(dest, str(d.method ?? ''), Number(d.timeoutMs) || 0);
    error.message = message;
    return error;
  },
};

function isWireError(error: unknown): error is Error & WireError {
  return error instanceof Error && typeof (error as Partial<WireError>).wireData === 'function';
}

export function failureOf(error: unknown): WireFailure {
  if (isWireError(error)) {
    return { type: error.name, message: error.message, data: error.wireData() };
  }
  if (error instanceof Error) return { type: error.name, message: error.message };
  return { type: 'Error', message: String(error) };
}

export function errorFromFailure(failure: unknown, known: RemoteErrorTypes): Error {
  const f = (failure ?? {}) as Partial<WireFailure>;
  const type = typeof f.type === 'string' ? f.type : 'Error';
  const message = typeof f.message === 'string' ? f.message : 'unknown remote failure';
  const data = f.data !== null && typeof f.data === 'object' ? f.data : {};
  const factory = Object.hasOwn(known, type) ? known[type] : undefined;
  if (factory !== undefined) {
    try {
      return factory(message, data);
    } catch {
      // A factory that cannot read the data must not hide the failure.
    }
  }
  return new RemoteError(type, message, data);
}
