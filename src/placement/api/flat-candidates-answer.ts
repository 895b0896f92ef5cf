/**
 * GET /allocation_candidates' common case (one group of resources, maybe trait filters, over
 * providers that are neither nested nor sharing) answered from one query, its JSON written directly: the
 * same body, per microversion, as the general path's objects would serialize to, without
 * building an object per candidate and per summary.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { flatCandidates } from '../candidates/flat.ts';
import {
  type GroupQuery,
  UnknownResourceClassError,
  UnknownTraitError,
} from '../candidates/model.ts';
import { type FlatProvider, loadFlatCandidates } from '../store/flat-candidates.ts';
import { setCacheHeaders } from './cache-headers.ts';
import { badRequest } from './errors.ts';
import { FEATURES } from './features.ts';
import { pythonIntOfFloat } from './python-number.ts';
import { sendJsonText } from './reply.ts';

const q = (text: string) => JSON.stringify(text);

/**
 * Answers the request when the flat shortcut applies; false when some provider holding a
 * requested class is nested or sharing (nothing sent: the general search must run).
 */
export async function answerFlat(
  request: FastifyRequest,
  reply: FastifyReply,
  group: GroupQuery,
  limit: number | undefined,
): Promise<boolean> {
  const { db, config, resourceClasses } = request.server.placement;
  const version = request.microversion;
  const resources: [number, number][] = [];
  // JSON of the group's resources, the same in every allocation request (request order).
  const parts: string[] = [];
  for (const [name, amount] of group.resources) {
    const classId = await resourceClasses.idOf(db.kysely, name);
    if (classId === undefined) {
      const message = new UnknownResourceClassError(name).message;
      throw badRequest(`Invalid resource class in resources parameter: ${message}`);
    }
    resources.push([classId, amount]);
    parts.push(`${q(name)}:${amount}`);
  }
  // Trait names in the order the general search checks them (the first unknown is named).
  const traitNames = [
    ...group.requiredTraits.flatMap((anyOf) => [...anyOf]),
    ...group.forbiddenTraits,
  ];
  const filters = traitNames.length > 0;
  const load = await loadFlatCandidates(db.kysely, db.caps, {
    resources,
    traits: version.atLeast(FEATURES.candidateTraits) || filters,
    traitNames: [...new Set(traitNames)].sort(),
  });
  if (load.spread) return false;
  for (const name of traitNames) {
    if (!load.knownTraits.has(name)) throw badRequest(new UnknownTraitError(name).message);
  }
  const random = config.randomizeAllocationCandidates ? Math.random : undefined;
  // Requests that shared the load and ask the same thing share the body (unless random).
  const traitKey = filters
    ? JSON.stringify([group.requiredTraits.map((anyOf) => [...anyOf]), [...group.forbiddenTraits]])
    : '';
  const renderKey = random
    ? undefined
    : `${version.text}|${limit}|${group.suffix}|${parts}|${traitKey}`;
  let rendered = renderKey === undefined ? undefined : renderedBodies.get(load)?.get(renderKey);
  if (rendered === undefined) {
    const candidates = flatCandidates(load.providers, resources, {
      requiredTraits: group.requiredTraits,
      forbiddenTraits: group.forbiddenTraits,
      limit,
      random,
    }).candidates;
    rendered = render(request, candidates, resources, parts, group.suffix);
    if (renderKey !== undefined) {
      const bodies = renderedBodies.get(load) ?? new Map<string, Promise<Buffer>>();
      bodies.set(renderKey, rendered);
      renderedBodies.set(load, bodies);
    }
  }
  const body = await rendered;
  setCacheHeaders(request, reply, new Date());
  sendJsonText(reply, 200, body);
  return true;
}

/** Bodies already written per load (a load lives as long as the requests sharing it). */
const renderedBodies = new WeakMap<object, Map<string, Promise<Buffer>>>();

async function render(
  request: FastifyRequest,
  candidates: readonly FlatProvider[],
  resources: readonly (readonly [number, number])[],
  parts: readonly string[],
  suffix: string,
): Promise<Buffer> {
  const version = request.microversion;
  const requested = new Set(resources.map(([classId]) => classId));

  const resourcesJson = `{${parts.join(',')}}`;
  const dictForm = version.atLeast(FEATURES.allocationsAsDict);
  const mappings = version.atLeast(FEATURES.allocationMappings)
    ? `,"mappings":{${q(suffix)}:[`
    : undefined;
  const out: string[] = ['{"allocation_requests":['];
  let first = true;
  for (const provider of candidates) {
    const uuid = q(provider.uuid);
    const comma = first ? '' : ',';
    first = false;
    if (!dictForm) {
      out.push(
        `${comma}{"allocations":[{"resource_provider":{"uuid":${uuid}},"resources":${resourcesJson}}]}`,
      );
    } else if (mappings === undefined) {
      out.push(`${comma}{"allocations":{${uuid}:{"resources":${resourcesJson}}}}`);
    } else {
      out.push(
        `${comma}{"allocations":{${uuid}:{"resources":${resourcesJson}}}${mappings}${uuid}]}}`,
      );
    }
  }
  out.push('],"provider_summaries":{');
  await writeSummaries(request, candidates, requested, out);
  out.push('}}');
  return Buffer.from(out.join(''));
}

/** Summaries of the candidates' providers (each its own tree), in id order. */
async function writeSummaries(
  request: FastifyRequest,
  candidates: readonly FlatProvider[],
  requested: ReadonlySet<number>,
  out: string[],
): Promise<void> {
  const { db, resourceClasses } = request.server.placement;
  const version = request.microversion;
  const allClasses = version.atLeast(FEATURES.summariesAllClasses);
  const withTraits = version.atLeast(FEATURES.candidateTraits);
  const withTree = version.atLeast(FEATURES.nestedCandidates);
  const names = new Map<number, string>();
  const byId = candidates.length > 1 ? [...candidates].sort((a, b) => a.id - b.id) : candidates;
  let first = true;
  for (const provider of byId) {
    const uuid = q(provider.uuid);
    let resources = '';
    for (const inv of provider.inventories) {
      if (!allClasses && !requested.has(inv.classId)) continue;
      let name = names.get(inv.classId);
      if (name === undefined) {
        name = q(await resourceClasses.nameOf(db.kysely, inv.classId));
        names.set(inv.classId, name);
      }
      const capacity = pythonIntOfFloat(inv.capacity);
      const written = typeof capacity === 'number' ? capacity : capacity.json;
      resources += `${resources === '' ? '' : ','}${name}:{"capacity":${written},"used":${inv.used}}`;
    }
    let body = `${first ? '' : ','}${uuid}:{"resources":{${resources}}`;
    first = false;
    if (withTraits) body += `,"traits":[${provider.traits.map(q).join(',')}]`;
    if (withTree) body += `,"parent_provider_uuid":null,"root_provider_uuid":${uuid}`;
    out.push(`${body}}`);
  }
}
