/** A resource provider as the API shows it, per microversion. */
import type { FastifyRequest } from 'fastify';
import { GatedFields } from '../../microversion/index.ts';
import type { ProviderDetail } from '../store/resource-providers.ts';
import { FEATURES } from './features.ts';

/** The sub-resources a provider links to, in the order the real service lists them. */
const LINKED = new GatedFields({
  inventories: null,
  usages: null,
  aggregates: FEATURES.providerAggregates,
  traits: FEATURES.traits,
  allocations: FEATURES.providerAllocationsLink,
});

export function providerUrl(uuid: string): string {
  return `/resource_providers/${uuid}`;
}

/** self, then the sub-resources in the order the real service lists them. */
export function providerLinks(request: FastifyRequest, uuid: string) {
  const url = providerUrl(uuid);
  const rels = LINKED.at(request.microversion.version);
  return [{ rel: 'self', href: url }, ...rels.map((rel) => ({ rel, href: `${url}/${rel}` }))];
}

export function providerBody(request: FastifyRequest, provider: ProviderDetail) {
  const body: Record<string, unknown> = {
    uuid: provider.uuid,
    name: provider.name,
    generation: provider.generation,
    links: providerLinks(request, provider.uuid),
  };
  if (request.microversion.atLeast(FEATURES.nestedProviders)) {
    body.parent_provider_uuid = provider.parentUuid;
    body.root_provider_uuid = provider.rootUuid;
  }
  return body;
}

/** What `last-modified` reflects for a provider: its last update, else its creation. */
export function providerModified(provider: ProviderDetail): Date | string | null {
  return provider.updatedAt ?? provider.createdAt;
}
