/**
 * The http transport's wire format: JSON-RPC 2.0, one request per HTTP POST
 * to `/rpc/<topic>`. A call is a request with an `id`, a cast a notification
 * (no `id`, answered `202` with no body once accepted). The JSON-RPC method
 * is the RPC method; `params` carries the RPC version, namespace, the
 * addressed server and the named arguments:
 *
 *   {"jsonrpc":"2.0","id":7,"method":"update_node",
 *    "params":{"version":"1.1","namespace":null,"server":"cond-1","args":{...}}}
 *   {"jsonrpc":"2.0","id":7,"result":{...}}
 *   {"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"...",
 *    "data":{"type":"UnsupportedVersionError","data":{...}}}}
 *
 * Calls pending together for one server and topic travel as a JSON-RPC batch
 * (an array of requests in one POST). The server answers a batch with an
 * array, but streams it: one element per line, each written as soon as its
 * call is done (completions of one event-loop turn in one write), so a slow
 * call does not hold back the others' answers. The body as a whole is an
 * ordinary JSON-RPC batch response (JSON allows the newlines between
 * elements; JSON.stringify never puts a raw newline inside one):
 *
 *   [
 *   {"jsonrpc":"2.0","id":8,"result":{...}}
 *   ,{"jsonrpc":"2.0","id":7,"result":{...}}
 *   ]
 */
import type { RpcReply, RpcRequest } from '../message.ts';
import type { WireFailure } from '../wire-errors.ts';

/** JSON-RPC error codes: the spec's, then Baton's in the server-defined range. */
export const JSON_RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** A handler's own error. */
  applicationError: -32000,
  unsupportedVersion: -32001,
  /** This process does not serve the topic (or the named server of it). */
  noSuchTarget: -32002,
  unauthorized: -32003,
} as const;

const CODE_OF_TYPE: Readonly<Record<string, number>> = {
  UnknownMethodError: JSON_RPC_CODES.methodNotFound,
  InvalidArgumentsError: JSON_RPC_CODES.invalidParams,
  UnsupportedVersionError: JSON_RPC_CODES.unsupportedVersion,
};

export type JsonRpcId = number | string;

export interface DecodedRequest {
  /** Undefined for a notification (a cast). */
  readonly id: JsonRpcId | undefined;
  readonly server: string | undefined;
  readonly request: RpcRequest;
}

export class JsonRpcProtocolError extends Error {
  override name = 'JsonRpcProtocolError';
  readonly code: number;
  readonly id: JsonRpcId | null;
  constructor(code: number, message: string, id: JsonRpcId | null = null) {
    super(message);
    this.code = code;
    this.id = id;
  }
}

export function encodeRequest(
  id: JsonRpcId | undefined,
  request: RpcRequest,
  server: string | undefined,
): string {
  const params = {
    version: request.version,
    namespace: request.namespace,
    server: server ?? null,
    args: request.args,
  };
  return JSON.stringify(
    id === undefined
      ? { jsonrpc: '2.0', method: request.method, params }
      : { jsonrpc: '2.0', id, method: request.method, params },
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Parses a request body: one request object or a batch (an array). */
export function parseRequestBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new JsonRpcProtocolError(JSON_RPC_CODES.parseError, 'the body is not JSON');
  }
}

export function decodeRequest(body: string): DecodedRequest {
  return decodeRequestMessage(parseRequestBody(body));
}

/** Validates one request object (a single request or one element of a batch). */
export function decodeRequestMessage(message: unknown): DecodedRequest {
  if (!isObject(message))
    throw new JsonRpcProtocolError(
      JSON_RPC_CODES.invalidRequest,
      'expected one JSON-RPC request object',
    );
  const id = message.id;
  const validId = typeof id === 'number' || typeof id === 'string';
  const replyId = validId ? id : null;
  const invalid = (why: string) =>
    new JsonRpcProtocolError(JSON_RPC_CODES.invalidRequest, why, replyId);
  if (message.jsonrpc !== '2.0') throw invalid("jsonrpc must be '2.0'");
  if (id !== undefined && !validId) throw invalid('id must be a number or a string');
  if (typeof message.method !== 'string' || message.method === '')
    throw invalid('method must be a non-empty string');
  const params = message.params;
  if (!isObject(params)) throw invalid('params must be an object');
  const { version, namespace, server, args } = params;
  if (typeof version !== 'string') throw invalid('params.version must be a string');
  if (namespace !== null && namespace !== undefined && typeof namespace !== 'string')
    throw invalid('params.namespace must be a string or null');
  if (server !== null && server !== undefined && typeof server !== 'string')
    throw invalid('params.server must be a string or null');
  if (!isObject(args)) throw invalid('params.args must be an object');
  return {
    id: validId ? id : undefined,
    server: typeof server === 'string' ? server : undefined,
    request: { method: message.method, version, namespace: namespace ?? null, args },
  };
}

export function encodeReply(id: JsonRpcId, reply: RpcReply): string {
  if (reply.ok) return JSON.stringify({ jsonrpc: '2.0', id, result: reply.result });
  return encodeFailure(id, reply.failure);
}

export function encodeFailure(id: JsonRpcId | null, failure: WireFailure, code?: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: {
      code: code ?? CODE_OF_TYPE[failure.type] ?? JSON_RPC_CODES.applicationError,
      message: failure.message,
      data: { type: failure.type, data: failure.data ?? {} },
    },
  });
}

export interface DecodedResponse {
  readonly reply: RpcReply;
  /** The JSON-RPC error code, when it is an error. */
  readonly code?: number;
}

export function decodeResponse(body: string): DecodedResponse {
  return decodeResponseMessage(JSON.parse(body));
}

/** Reads one response object (a single response or one element of a batch response). */
export function decodeResponseMessage(message: unknown): DecodedResponse {
  if (!isObject(message) || message.jsonrpc !== '2.0')
    throw new Error('not a JSON-RPC 2.0 response');
  if ('result' in message) return { reply: { ok: true, result: message.result } };
  const error = message.error;
  if (!isObject(error)) throw new Error('a JSON-RPC response needs a result or an error');
  const data = isObject(error.data) ? error.data : {};
  const failure: WireFailure = {
    type: typeof data.type === 'string' ? data.type : 'JsonRpcError',
    message: typeof error.message === 'string' ? error.message : 'unknown error',
    data: isObject(data.data) ? data.data : {},
  };
  return {
    reply: { ok: false, failure },
    ...(typeof error.code === 'number' ? { code: error.code } : {}),
  };
}
