/**
 * Routes of /resource_providers/{uuid}/aggregates (from 1.1). From 1.19 both answers carry
 * the provider generation, and a PUT names the generation it saw and bumps it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bumpGeneration, ConcurrentUpdateError, inTransaction } from '../../db/index.ts';
import { FeatureWindows } from '../../microversion/index.ts';
import { PUT_AGGREGATES_SCHEMA_1_1, PUT_AGGREGATES_SCHEMA_1_19 } from '../schemas/aggregate.ts';
import { providerAggregates, setProviderAggregates } from '../store/aggregates.ts';
import { isTransientConflict } from '../store/allocation-rules.ts';
import { findProvider } from '../store/provider-lookup.ts';
import { setCacheHeaders } from './cache-headers.ts';
import { conflict, ErrorCodes, notFound } from './errors.ts';
import { FEATURES } from './features.ts';
import { sendJson } from './reply.ts';
import { checkAcceptsJson, readJsonBody, requireJsonContent } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, requireVersion } from './routing.ts';

/** Attempts of a write that deadlocks (oslo.db's wrap_db_retry in the real service: 5). */
const DEADLOCK_RETRIES = 5;

/** PUT's body: a bare list, then an object carrying the provider generation. */
export const PUT_AGGREGATES_SCHEMAS = new FeatureWindows(
  'PUT /resource_providers/{uuid}/aggregates body',
  [
    {
      since: FEATURES.providerAggregates,
      until: FEATURES.aggregateGenerations,
      use: PUT_AGGREGATES_SCHEMA_1_1,
    },
    { since: FEATURES.aggregateGenerations, use: PUT_AGGREGATES_SCHEMA_1_19 },
  ],
);

function sendAggregates(
  request: FastifyRequest,
  reply: FastifyReply,
  aggregates: readonly string[],
  generation: number,
) {
  const body: Record<string, unknown> = { aggregates };
  if (request.microversion.atLeast(FEATURES.aggregateGenerations)) {
    body.resource_provider_generation = generation;
  }
  // No time is kept for the links themselves: last-modified is now.
  setCacheHeaders(request, reply, new Date());
  return sendJson(reply, 200, body);
}

async function lookupProvider(request: FastifyRequest) {
  const uuid = (request.params as { uuid: string }).uuid;
  const provider = await findProvider(request.server.placement.db.kysely, uuid);
  if (provider === undefined) {
    // The real lookup raises past the handler: no `Vary`.
    throw notFound(`No resource provider with uuid ${uuid} found`, { escapesHandler: true });
  }
  return provider;
}

async function getAggregates(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  requireVersion(request, FEATURES.providerAggregates);
  authorize(request, 'placement:resource_providers:aggregates:list');
  const provider = await lookupProvider(request);
  const aggregates = await providerAggregates(request.server.placement.db.kysely, provider.id);
  return sendAggregates(request, reply, aggregates, provider.generation);
}

async function putAggregates(request: FastifyRequest, reply: FastifyReply) {
  requireJsonContent(request);
  requireVersion(request, FEATURES.providerAggregates);
  authorize(request, 'placement:resource_providers:aggregates:update');
  const withGeneration = request.microversion.atLeast(FEATURES.aggregateGenerations);
  const provider = await lookupProvider(request);
  const schema = PUT_AGGREGATES_SCHEMAS.expect(request.microversion.version);
  let aggregates: string[];
  if (withGeneration) {
    const data = await readJsonBody<{ aggregates: string[]; resource_provider_generation: number }>(
      request,
      schema,
    );
    if (data.resource_provider_generation !== provider.generation) {
      throw conflict(
        "Resource provider's generation already changed. Please update the generation and try again.",
        { code: ErrorCodes.CONCURRENT_UPDATE },
      );
    }
    aggregates = data.aggregates;
  } else {
    aggregates = await readJsonBody<string[]>(request, schema);
  }
  const database = request.server.placement.db;
  let generation = provider.generation;
  const write = () =>
    inTransaction(database, async (trx) => {
      await setProviderAggregates(trx, database.caps, provider.id, aggregates);
      if (withGeneration) {
        generation = await bumpGeneration(trx, {
          table: 'resource_providers',
          id: provider.id,
          expected: provider.generation,
        });
      }
    });
  try {
    // A deadlock (MariaDB, two writers linking the same new aggregate) is run again, as the
    // real service's oslo.db retry_on_deadlock does; the loser then sees the generation moved.
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        break;
      } catch (error) {
        if (attempt >= DEADLOCK_RETRIES || !isTransientConflict(error)) throw error;
      }
    }
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) {
      throw conflict(
        'Update conflict: Another thread concurrently updated the resource provider data. ' +
          'Please retry your update',
        { code: ErrorCodes.CONCURRENT_UPDATE },
      );
    }
    throw error;
  }
  // The answer repeats the list as sent.
  return sendAggregates(request, reply, aggregates, generation);
}

export function registerAggregateRoutes(app: FastifyInstance): void {
  declareRoute(app, '/resource_providers/:uuid/aggregates', {
    GET: getAggregates,
    PUT: putAggregates,
  });
}
