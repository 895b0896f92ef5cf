/** A resource provider as the API shows it, per microversion. */
import type { FastifyRequest } from 'fastify';
import { parseVersion } from '../../microversion/index.ts';
import type { ProviderDetail } from '../store/resource-providers.ts';

const AGGREGATES_LINK_SINCE = parseVersion('1.1');
const TRAITS_LINK_SINCE = parseVersion('1.6');
const ALLOCATIONS_LINK_SINCE = parseVersion('1.11');
const TREE_FIELDS_SINCE = parseVersion('1.14');

export function providerUrl(uuid: string): string {
  return `/resource_providers/${uuid}`;
}

/** self, then the sub-resources in the order the real service lists them. */
export function providerLinks(request: FastifyRequest, uuid: string) {
  const url = providerUrl(uuid);
  const rels = ['inventories', 'usages'];
  const version = request.microversion;
  if (version.atLeast(AGGREGATES_LINK_SINCE)) rels.push('aggregates');
  if (version.atLeast(TRAITS_LINK_SINCE)) rels.push('traits');
  if (version.atLeast(ALLOCATIONS_LINK_SINCE)) rels.push('allocations');
  return [{ rel: 'self', href: url }, ...rels.map((rel) => ({ rel, href: `${url}/${rel}` }))];
}

export function providerBody(request: FastifyRequest, provider: ProviderDetail) {
  const body: Record<string, unknown> = {
    uuid: provider.uuid,
    name: provider.name,
    generation: provider.generation,
    links: providerLinks(request, provider.uuid),
  };
  if (request.microversion.atLeast(TREE_FIELDS_SINCE)) {
    body.parent_provider_uuid = provider.parentUuid;
    body.root_provider_uuid = provider.rootUuid;
  }
  return body;
}

/** What `last-modified` reflects for a provider: its last update, else its creation. */
export function providerModified(provider: ProviderDetail): Date | string | null {
  return provider.updatedAt ?? provider.createdAt;
}
