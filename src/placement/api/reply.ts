/**
 * Answers with `content-type: application/json` exactly, as the real service does (a Buffer
 * payload keeps Fastify from appending a charset).
 */
import type { FastifyReply } from 'fastify';
import { pythonJsonText } from './python-number.ts';

export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(body)));
}

/** A body holding numbers typed as Python types them (python-number.ts). */
export function sendPythonJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send(Buffer.from(pythonJsonText(body)));
}

/** 204 No Content: no body, no content-type. */
export function sendNoContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).removeHeader('content-type').send();
}

/** A JSON body already serialized (hot paths that write their JSON directly). */
export function sendJsonText(
  reply: FastifyReply,
  status: number,
  json: string | Buffer,
): FastifyReply {
  const payload = typeof json === 'string' ? Buffer.from(json) : json;
  return reply.code(status).header('content-type', 'application/json').send(payload);
}
