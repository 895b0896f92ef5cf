/**
 * `GET /openapi/{X.Y}.json`: Baton's OpenAPI document of one microversion, beside `/` and
 * `/v1` (Ironic has no such path, so none of its clients can collide with it). The API takes
 * no token, as for every other path.
 */
import type { FastifyInstance } from 'fastify';
import { OpenApiDocuments } from '../../microversion/index.ts';
import type { Handler } from './context.ts';
import { ClientSideError } from './errors.ts';
import { BAREMETAL_OPENAPI } from './openapi-operations.ts';
import { declareRoute } from './routing.ts';
import { OPENAPI_PREFIX } from './wsgi-path.ts';

const DOCUMENTS = new OpenApiDocuments(BAREMETAL_OPENAPI);

const document: Handler = async (request, reply) => {
  const { document: file } = request.params as { document: string };
  const text = DOCUMENTS.text(file);
  if (text === undefined) {
    throw new ClientSideError(
      `No OpenAPI document ${file}: ask for one of the microversions, as 1.82.json.`,
      404,
    );
  }
  reply.type('application/json').send(text);
  return undefined;
};

export function registerOpenApiRoute(app: FastifyInstance): void {
  declareRoute(app, `${OPENAPI_PREFIX}:document`, { GET: document });
}
