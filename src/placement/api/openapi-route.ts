/**
 * `GET /openapi/{X.Y}.json`: Baton's OpenAPI document of one microversion (Placement has no
 * such path, so none of its clients can collide with it). No token, as for `/`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OpenApiDocuments } from '../../microversion/index.ts';
import { notFound } from './errors.ts';
import { PLACEMENT_OPENAPI } from './openapi-operations.ts';
import { sendJsonText } from './reply.ts';
import { declareRoute } from './routing.ts';

export const OPENAPI_PATH_PREFIX = '/openapi/';

const DOCUMENTS = new OpenApiDocuments(PLACEMENT_OPENAPI);

async function document(request: FastifyRequest, reply: FastifyReply) {
  const { document: file } = request.params as { document: string };
  const text = DOCUMENTS.text(file);
  if (text === undefined) {
    throw notFound(`No OpenAPI document ${file}: ask for one of the microversions, as 1.39.json.`);
  }
  return sendJsonText(reply, 200, text);
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  declareRoute(app, `${OPENAPI_PATH_PREFIX}:document`, { GET: document });
}
