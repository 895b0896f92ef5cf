/** Fixed ids and set-up steps shared by the envelope, provider, inventory, class and trait scenarios (helper A). */
import type { Pair, PairRequest, StepResult } from '../pair.ts';

export const LATEST = '1.39';

/** Providers p(1..), aggregates g(1..), consumers u(1..): ids both servers see. */
export const p = (n: number) => `aa000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const g = (n: number) => `ab000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const u = (n: number) => `ac000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The versions just below and at each boundary that changes behaviour, plus the ends. */
export function around(...boundaries: string[]): string[] {
  const out = new Set<string>(['1.0']);
  for (const b of boundaries) {
    const [major, minor] = b.split('.').map(Number) as [number, number];
    if (minor > 0) out.add(`${major}.${minor - 1}`);
    out.add(b);
  }
  out.add(LATEST);
  return [...out];
}

/** A step's answer from the real service, for follow-up requests that need its values. */
export function realBody<T = Record<string, unknown>>(step: StepResult): T {
  return step.real.body as T;
}

/** Creates a provider (optionally under a parent); every set-up step takes the version to send. */
export async function createProvider(
  pair: Pair,
  uuid: string,
  name: string,
  parent?: string,
  version = LATEST,
): Promise<void> {
  const body: Record<string, unknown> = { uuid, name };
  if (parent !== undefined) body.parent_provider_uuid = parent;
  await pair.req(`create provider ${name}`, {
    method: 'POST',
    path: '/resource_providers',
    version,
    body,
  });
}

/** The real service's generation of a provider. */
export async function generationOf(pair: Pair, uuid: string, version = LATEST): Promise<number> {
  const got = await pair.req(`generation of ${uuid}`, {
    method: 'GET',
    path: `/resource_providers/${uuid}`,
    version,
  });
  return (got.real.body as { generation?: number }).generation ?? 0;
}

/** Replaces a provider's inventories (reads its generation first). */
export async function setInventories(
  pair: Pair,
  uuid: string,
  inventories: Readonly<Record<string, object>>,
  version = LATEST,
): Promise<void> {
  const generation = await generationOf(pair, uuid, version);
  await pair.req(`inventories of ${uuid}`, {
    method: 'PUT',
    path: `/resource_providers/${uuid}/inventories`,
    version,
    body: { resource_provider_generation: generation, inventories },
  });
}

/** Sets a provider's traits, creating the custom ones first (reads its generation first). */
export async function setTraits(
  pair: Pair,
  uuid: string,
  traits: readonly string[],
  version = LATEST,
): Promise<void> {
  for (const name of traits.filter((t) => t.startsWith('CUSTOM_'))) {
    await pair.req(`trait ${name}`, { method: 'PUT', path: `/traits/${name}`, version });
  }
  const generation = await generationOf(pair, uuid, version);
  await pair.req(`traits of ${uuid}`, {
    method: 'PUT',
    path: `/resource_providers/${uuid}/traits`,
    version,
    body: { resource_provider_generation: generation, traits },
  });
}

/** Sets a provider's aggregates (1.19 form or later; reads its generation first). */
export async function setAggregates(
  pair: Pair,
  uuid: string,
  aggregates: readonly string[],
  version = LATEST,
): Promise<void> {
  const generation = await generationOf(pair, uuid, version);
  await pair.req(`aggregates of ${uuid}`, {
    method: 'PUT',
    path: `/resource_providers/${uuid}/aggregates`,
    version,
    body: { resource_provider_generation: generation, aggregates },
  });
}

/** Allocations for one consumer at the latest version. */
export async function allocate(
  pair: Pair,
  consumer: string,
  allocations: Readonly<Record<string, Readonly<Record<string, number>>>>,
  options: { project?: string; user?: string; consumerType?: string } = {},
): Promise<void> {
  const body: Record<string, unknown> = {
    allocations: Object.fromEntries(
      Object.entries(allocations).map(([rp, resources]) => [rp, { resources }]),
    ),
    project_id: options.project ?? 'project-a',
    user_id: options.user ?? 'user-a',
    consumer_generation: null,
    consumer_type: options.consumerType ?? 'INSTANCE',
  };
  await pair.req(`allocate ${consumer}`, {
    method: 'PUT',
    path: `/allocations/${consumer}`,
    version: LATEST,
    body,
  });
}

/** Sends one request to both at each of several versions. */
export async function atVersions(
  pair: Pair,
  title: string,
  versions: readonly string[],
  request: Omit<PairRequest, 'version'>,
): Promise<void> {
  for (const version of versions) await pair.req(`${title} @${version}`, { ...request, version });
}
