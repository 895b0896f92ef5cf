/**
 * Failures in oslo.messaging's form: a reply's `failure` is a JSON string
 * `{"class", "module", "message", "tb", "args", "kwargs"}`, the exception's
 * class and module, its text, traceback lines and constructor arguments
 * (oslo's serialize_remote_exception). A Python caller rebuilds the class
 * when its module is allowed, otherwise raises RemoteError.
 *
 * Baton's errors that oslo has its own class for go as that class, so a
 * Python caller rebuilds them as oslo's (UnsupportedVersion, NoSuchMethod,
 * MessagingTimeout); the rest go under the module `baton`. Baton adds one
 * key, `baton: {type, data}`, its exact failure, which oslo does not read.
 * Reading, that key wins; without it (an oslo peer) oslo's classes become
 * Baton's typed errors and any other class keeps its name and kwargs. Pure.
 */
import type { WireFailure } from '../wire-errors.ts';

/** Where oslo.messaging defines the classes that have a Baton counterpart. */
const DISPATCHER_MODULE = 'oslo_messaging.rpc.dispatcher';
const EXCEPTIONS_MODULE = 'oslo_messaging.exceptions';
/** The module Baton's own error classes are sent under. */
export const BATON_MODULE = 'baton';

interface OsloFailure {
  readonly class: string;
  readonly module: string;
  readonly message: string;
  readonly tb: readonly string[];
  readonly args: readonly unknown[];
  readonly kwargs: Record<string, unknown>;
  readonly baton?: { readonly type: string; readonly data?: Record<string, unknown> };
}

/** The request a failure answers: oslo's dispatcher errors do not repeat it. */
export interface FailedCall {
  readonly method: string;
  readonly version: string;
  readonly namespace: string | null;
}

type OsloShape = Pick<OsloFailure, 'class' | 'module' | 'args' | 'kwargs'>;

/** Baton's types that oslo has a class for, with that class's constructor arguments. */
const AS_OSLO: Readonly<Record<string, (f: WireFailure) => OsloShape>> = {
  UnsupportedVersionError: (f) => ({
    class: 'UnsupportedVersion',
    module: DISPATCHER_MODULE,
    args: [String(f.data?.requested ?? '')],
    kwargs: f.data?.method === undefined ? {} : { method: f.data.method },
  }),
  UnknownMethodError: (f) => ({
    class: 'NoSuchMethod',
    module: DISPATCHER_MODULE,
    args: [String(f.data?.method ?? '')],
    kwargs: {},
  }),
  RpcTimeoutError: (f) => ({
    class: 'MessagingTimeout',
    module: EXCEPTIONS_MODULE,
    args: [f.message],
    kwargs: {},
  }),
};

/** The JSON string a reply's `failure` holds. */
export function osloFailureOf(failure: WireFailure): string {
  const shape = Object.hasOwn(AS_OSLO, failure.type)
    ? (AS_OSLO[failure.type] as (f: WireFailure) => OsloShape)(failure)
    : {
        class: failure.type,
        module: BATON_MODULE,
        args: [failure.message],
        kwargs: failure.data ?? {},
      };
  const body: OsloFailure = {
    ...shape,
    message: failure.message,
    tb: [],
    baton: { type: failure.type, ...(failure.data === undefined ? {} : { data: failure.data }) },
  };
  return JSON.stringify(body);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads a reply's `failure` (a JSON string, or already an object) as Baton's failure. */
export function wireFailureOfOslo(failure: unknown, call: FailedCall): WireFailure {
  let value: unknown = failure;
  if (typeof failure === 'string') {
    try {
      value = JSON.parse(failure);
    } catch {
      return { type: 'InvalidReply', message: `the failure is not JSON: ${failure.slice(0, 200)}` };
    }
  }
  if (!isObject(value))
    return { type: 'InvalidReply', message: 'the failure is not a JSON object' };
  const message = typeof value.message === 'string' ? value.message : '';
  const baton = value.baton;
  if (isObject(baton) && typeof baton.type === 'string')
    return { type: baton.type, message, ...(isObject(baton.data) ? { data: baton.data } : {}) };
  const cls = typeof value.class === 'string' ? value.class : 'Exception';
  const kwargs = isObject(value.kwargs) ? value.kwargs : {};
  switch (`${value.module}:${cls}`) {
    case `${DISPATCHER_MODULE}:UnsupportedVersion`:
      return {
        type: 'UnsupportedVersionError',
        message,
        data: { method: call.method, requested: call.version, served: [] },
      };
    case `${DISPATCHER_MODULE}:NoSuchMethod`:
      return {
        type: 'UnknownMethodError',
        message,
        data: { method: call.method, namespace: call.namespace },
      };
    case `${EXCEPTIONS_MODULE}:MessagingTimeout`:
      return { type: 'RpcTimeoutError', message, data: {} };
    default:
      return { type: cls, message, data: kwargs };
  }
}
