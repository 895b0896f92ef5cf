/**
 * Message bodies in oslo.messaging's format (its rabbit driver, 14.x:
 * amqpdriver.py, amqp.py, common.py), so Baton and Python services can call
 * each other through the same broker. Every body is JSON
 * (`application/json`, utf-8) wrapped in the 2.0 envelope:
 *
 *   {"oslo.version": "2.0", "oslo.message": "<the message, as a JSON string>"}
 *
 * A request: `{"method", "args", "namespace"? (only when set), "version",
 * "_msg_id", "_reply_q", "_timeout" (calls only), "_unique_id",
 * "_context_<key>": value…}`; the reply queue and the message id that
 * addresses the answer travel in the body. A reply: `{"result", "failure"
 * (null or oslo's failure string), "ending": true, "_msg_id", "_unique_id"}`;
 * `ending: false` with neither result nor failure is a server's keep-alive
 * for a call that asked for one (`_timeout`). Pure.
 */
import { randomUUID } from 'node:crypto';
import { type RpcReply, type RpcRequest, readRpcRequest } from '../message.ts';
import type { WireFailure } from '../wire-errors.ts';
import { osloFailureOf } from './amqp-failures.ts';

const VERSION_KEY = 'oslo.version';
const MESSAGE_KEY = 'oslo.message';
const ENVELOPE_MAJOR = 2;
const ENVELOPE_MINOR = 0;
const CONTEXT_PREFIX = '_context_';

/** AMQP properties of every message, as kombu's JSON serializer sets them. */
export const JSON_CONTENT = { contentType: 'application/json', contentEncoding: 'utf-8' } as const;

/** oslo's ids are uuid4 hex. */
export function newMessageId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Where a call's answer goes: a reply queue, and the id that picks the call out. */
export interface ReplyAddress {
  readonly msgId: string;
  readonly replyQ: string;
}

/** The body, and its `_unique_id` (a returned cast is recognised by it). */
export function encodeRequest(
  request: RpcRequest,
  reply?: ReplyAddress,
): { readonly body: Buffer; readonly uniqueId: string } {
  const body: Record<string, unknown> = { method: request.method, args: request.args };
  if (request.namespace !== null) body.namespace = request.namespace;
  body.version = request.version;
  if (reply !== undefined) {
    body._msg_id = reply.msgId;
    body._reply_q = reply.replyQ;
    body._timeout = null; // no call monitoring asked for
  }
  const uniqueId = newMessageId();
  body._unique_id = uniqueId;
  if (request.context !== undefined)
    for (const key of Object.keys(request.context))
      body[CONTEXT_PREFIX + key] = request.context[key];
  return { body: envelope(body), uniqueId };
}

/** The answer to a call; `ending` marks the last message for it. */
export function encodeReply(msgId: string, reply: RpcReply): Buffer {
  return envelope({
    result: reply.ok ? reply.result : null,
    failure: reply.ok ? null : osloFailureOf(reply.failure),
    ending: true,
    _msg_id: msgId,
    _unique_id: newMessageId(),
  });
}

/** The call-monitor keep-alive: the call is still running. */
export function encodeKeepAlive(msgId: string): Buffer {
  return envelope({
    result: null,
    failure: null,
    ending: false,
    _msg_id: msgId,
    _unique_id: newMessageId(),
  });
}

/** The message is JSON inside JSON: written twice and read twice, the format's own cost. */
function envelope(message: Record<string, unknown>): Buffer {
  return Buffer.from(
    `{"${VERSION_KEY}":"2.0","${MESSAGE_KEY}":${JSON.stringify(JSON.stringify(message))}}`,
  );
}

export type Decoded<T> =
  | ({ readonly ok: true } & T)
  | { readonly ok: false; readonly problem: string; readonly reply?: ReplyAddress };

export interface IncomingRequest {
  readonly request: RpcRequest;
  /** Present for calls. */
  readonly reply?: ReplyAddress;
  /** For dropping a message delivered twice. */
  readonly uniqueId?: string;
  /** Seconds; the caller wants a keep-alive every half of it (oslo's call monitor). */
  readonly monitorSeconds?: number;
}

/** A request as a server reads it; a problem (and, if readable, where to answer) otherwise. */
export function decodeRequest(content: Buffer, contentType?: string): Decoded<IncomingRequest> {
  const opened = openEnvelope(content, contentType);
  const message = opened.message;
  const reply =
    typeof message?._msg_id === 'string' && typeof message._reply_q === 'string'
      ? { msgId: message._msg_id, replyQ: message._reply_q }
      : undefined;
  if (opened.problem !== undefined || message === undefined)
    return {
      ok: false,
      problem: opened.problem ?? 'no message',
      ...(reply === undefined ? {} : { reply }),
    };
  let context: Record<string, unknown> | undefined;
  for (const key of Object.keys(message)) {
    if (!key.startsWith(CONTEXT_PREFIX)) continue;
    context ??= {};
    Object.defineProperty(context, key.slice(CONTEXT_PREFIX.length), {
      value: message[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  // oslo's dispatcher: no version means 1.0, no namespace the default one, no args none.
  const read = readRpcRequest({
    method: message.method,
    version: message.version === undefined ? '1.0' : message.version,
    namespace: message.namespace,
    args: message.args === undefined ? {} : message.args,
    ...(context === undefined ? {} : { context }),
  });
  if (typeof read === 'string')
    return { ok: false, problem: read, ...(reply === undefined ? {} : { reply }) };
  const monitor = Number(message._timeout);
  return {
    ok: true,
    request: read,
    ...(reply === undefined ? {} : { reply }),
    ...(typeof message._unique_id === 'string' ? { uniqueId: message._unique_id } : {}),
    ...(message._timeout != null && Number.isFinite(monitor) && monitor > 0
      ? { monitorSeconds: monitor }
      : {}),
  };
}

export interface IncomingReply {
  readonly msgId: string;
  readonly result: unknown;
  /** oslo's failure string (or object), or null. */
  readonly failure: unknown;
  readonly ending: boolean;
}

export function decodeReply(content: Buffer, contentType?: string): Decoded<IncomingReply> {
  const { message: opened, problem } = openEnvelope(content, contentType);
  if (problem !== undefined || opened === undefined)
    return { ok: false, problem: problem ?? 'no message' };
  if (typeof opened._msg_id !== 'string')
    return { ok: false, problem: 'a reply must have a string _msg_id' };
  return {
    ok: true,
    msgId: opened._msg_id,
    result: opened.result ?? null,
    failure: opened.failure ?? null,
    // oslo's reply waiter reads a missing `ending` as false.
    ending: opened.ending === true,
  };
}

/** The reply failure for a request that could not be read. */
export function unreadableRequestFailure(problem: string): WireFailure {
  return { type: 'InvalidRpcMessage', message: `the request could not be read: ${problem}` };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The message inside the envelope. As oslo's deserialize_msg, a JSON object
 * without the envelope's two keys is taken as the message itself (envelope
 * 1.0), and an envelope of another major (or a newer minor) is refused; its
 * message is still read, if it can be, to answer the caller.
 */
function openEnvelope(
  content: Buffer,
  contentType?: string,
): { readonly message?: Record<string, unknown>; readonly problem?: string } {
  if (contentType !== undefined && contentType !== 'application/json')
    return { problem: `content type '${contentType}' is not application/json` };
  let outer: unknown;
  try {
    outer = JSON.parse(content.toString('utf8'));
  } catch {
    return { problem: 'the body is not JSON' };
  }
  if (!isObject(outer)) return { problem: 'the body is not a JSON object' };
  if (!(VERSION_KEY in outer && MESSAGE_KEY in outer)) return { message: outer };
  let message: Record<string, unknown> | undefined;
  let problem: string | undefined;
  const inner = outer[MESSAGE_KEY];
  if (typeof inner !== 'string') problem = `${MESSAGE_KEY} is not a string`;
  else {
    try {
      const parsed: unknown = JSON.parse(inner);
      if (isObject(parsed)) message = parsed;
      else problem = `${MESSAGE_KEY} is not a JSON object`;
    } catch {
      problem = `${MESSAGE_KEY} is not JSON`;
    }
  }
  const version = outer[VERSION_KEY];
  const match = typeof version === 'string' ? /^(\d+)\.(\d+)(\.0)?$/.exec(version) : null;
  if (match === null || Number(match[1]) !== ENVELOPE_MAJOR || Number(match[2]) > ENVELOPE_MINOR)
    problem = `envelope version ${JSON.stringify(version)} is not supported (this end reads 2.0)`;
  return {
    ...(message === undefined ? {} : { message }),
    ...(problem === undefined ? {} : { problem }),
  };
}
