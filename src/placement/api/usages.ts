/**
 * Usages: one provider's (`/resource_providers/{uuid}/usages`) and a project's or user's
 * (`/usages`, from 1.9; grouped by consumer type from 1.38).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FeatureWindows } from '../../microversion/index.ts';
import { USAGES_QUERY_SCHEMA, USAGES_QUERY_SCHEMA_1_38 } from '../schemas/usage.ts';
import {
  type ClassUsage,
  type ConsumerTypeChoice,
  projectUsages,
  projectUsagesByConsumerType,
  usagesOfProvider,
} from '../store/usages.ts';
import { setCacheHeaders } from './cache-headers.ts';
import { notFound } from './errors.ts';
import { FEATURES } from './features.ts';
import { queryValue, validateQuery } from './query.ts';
import { sendJson } from './reply.ts';
import { checkAcceptsJson } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, since } from './routing.ts';

/** GET /usages' query string: `consumer_type` joins it with consumer types. */
export const TOTAL_USAGES_QUERY_SCHEMAS = new FeatureWindows('GET /usages query', [
  { since: FEATURES.usages, until: FEATURES.consumerTypes, use: USAGES_QUERY_SCHEMA },
  { since: FEATURES.consumerTypes, use: USAGES_QUERY_SCHEMA_1_38 },
]);

const PROVIDER_USAGES_RULE = 'placement:resource_providers:usages';
const TOTAL_USAGES_RULE = 'placement:usages';

/** The key of consumers without a type (the real service's NULL_CONSUMER_TYPE_ALIAS). */
const UNKNOWN_CONSUMER_TYPE = 'unknown';
const ALL_CONSUMER_TYPES = 'all';

async function byClassName(
  request: FastifyRequest,
  usages: readonly ClassUsage[],
  into: Record<string, number> = {},
): Promise<Record<string, number>> {
  const { db, resourceClasses } = request.server.placement;
  for (const usage of usages) {
    into[await resourceClasses.nameOf(db.kysely, usage.resourceClassId)] = usage.used;
  }
  return into;
}

async function listProviderUsages(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, PROVIDER_USAGES_RULE);
  const { uuid } = request.params as { uuid: string };
  const { db } = request.server.placement;
  const provider = await usagesOfProvider(db.kysely, uuid);
  if (provider === undefined) {
    const base = `No resource provider with uuid ${uuid} found`;
    throw notFound(`${base}: ${base}`);
  }
  const usages = await byClassName(request, provider.usages);
  // Usage is "now": there is no stored time to show.
  setCacheHeaders(request, reply, new Date());
  return sendJson(reply, 200, { resource_provider_generation: provider.generation, usages });
}

function consumerTypeChoice(value: string | undefined): ConsumerTypeChoice {
  if (value === undefined) return { kind: 'each' };
  if (value === ALL_CONSUMER_TYPES) return { kind: 'all' };
  if (value === UNKNOWN_CONSUMER_TYPE) return { kind: 'untyped' };
  return { kind: 'named', name: value };
}

async function totalUsages(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  const projectId = queryValue(request, 'project_id');
  // The target is the project asked about (none when the query names none).
  authorize(request, TOTAL_USAGES_RULE, projectId === undefined ? {} : { project_id: projectId });
  const byType = request.microversion.atLeast(FEATURES.consumerTypes);
  validateQuery(request, TOTAL_USAGES_QUERY_SCHEMAS.expect(request.microversion.version));
  const filter = { projectId: projectId as string, userId: queryValue(request, 'user_id') };
  const { db } = request.server.placement;
  let usages: Record<string, unknown>;
  if (byType) {
    const choice = consumerTypeChoice(queryValue(request, 'consumer_type'));
    const groups = await projectUsagesByConsumerType(db.kysely, filter, choice);
    usages = {};
    for (const group of groups) {
      const key =
        choice.kind === 'all' ? ALL_CONSUMER_TYPES : (group.consumerType ?? UNKNOWN_CONSUMER_TYPE);
      const entry = await byClassName(request, group.usages);
      entry.consumer_count = group.consumerCount;
      usages[key] = entry;
    }
  } else {
    usages = await byClassName(request, await projectUsages(db.kysely, filter));
  }
  setCacheHeaders(request, reply, new Date());
  return sendJson(reply, 200, { usages });
}

export function registerUsageRoutes(app: FastifyInstance): void {
  declareRoute(app, '/resource_providers/:uuid/usages', { GET: listProviderUsages });
  declareRoute(app, '/usages', { GET: since(FEATURES.usages, totalUsages) });
}
