/** Set-up steps shared by the allocation, candidate and reshaper scenarios (helper B). */
import type { Pair } from '../pair.ts';

export const LATEST = '1.39';

/** Fixed ids both servers see: providers p(1..), consumers c(1..), aggregates a(1..). */
export const p = (n: number) => `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const c = (n: number) => `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const a = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export interface InventoryRecord {
  readonly total: number;
  readonly reserved?: number;
  readonly min_unit?: number;
  readonly max_unit?: number;
  readonly step_size?: number;
  readonly allocation_ratio?: number;
}

/** Creates a provider (optionally under a parent) at 1.14. */
export async function provider(
  pair: Pair,
  uuid: string,
  name: string,
  parent?: string,
): Promise<void> {
  const body: Record<string, unknown> = { uuid, name };
  if (parent !== undefined) body.parent_provider_uuid = parent;
  await pair.req(`create provider ${name}`, {
    method: 'POST',
    path: '/resource_providers',
    version: '1.14',
    body,
  });
}

/** Replaces a provider's inventories (reads its generation first). */
export async function inventories(
  pair: Pair,
  uuid: string,
  records: Readonly<Record<string, InventoryRecord>>,
): Promise<void> {
  const got = await pair.req(`generation of ${uuid}`, {
    method: 'GET',
    path: `/resource_providers/${uuid}`,
    version: '1.14',
  });
  const generation = (got.real.body as { generation?: number }).generation ?? 0;
  await pair.req(`inventories of ${uuid}`, {
    method: 'PUT',
    path: `/resource_providers/${uuid}/inventories`,
    version: '1.14',
    body: { resource_provider_generation: generation, inventories: records },
  });
}

/** Sets a provider's traits (reads its generation first). */
export async function traits(pair: Pair, uuid: string, names: readonly string[]): Promise<void> {
  for (const name of names.filter((n) => n.startsWith('CUSTOM_'))) {
    await pair.req(`trait ${name}`, { method: 'PUT', path: `/traits/${name}`, version: '1.6' });
  }
  const got = await pair.req(`generation of ${uuid}`, {
    method: 'GET',
    path: `/resource_providers/${uuid}`,
    version: '1.14',
  });
  const generation = (got.real.body as { generation?: number }).generation ?? 0;
  await pair.req(`traits of ${uuid}`, {
    method: 'PUT',
    path: `/resource_providers/${uuid}/traits`,
    version: '1.6',
    body: { resource_provider_generation: generation, traits: names },
  });
}

/** Sets a provider's aggregates (1.19 form, reads its generation first). */
export async function aggregates(pair: Pair, uuid: string, aggs: readonly string[]): Promise<void> {
  const got = await pair.req(`generation of ${uuid}`, {
    method: 'GET',
    path: `/resource_providers/${uuid}`,
    version: '1.19',
  });
  const generation = (got.real.body as { generation?: number }).generation ?? 0;
  await pair.req(`aggregates of ${uuid}`, {
    method: 'PUT',
    path: `/resource_providers/${uuid}/aggregates`,
    version: '1.19',
    body: { resource_provider_generation: generation, aggregates: aggs },
  });
}

/** Creates a custom resource class. */
export async function resourceClass(pair: Pair, name: string): Promise<void> {
  await pair.req(`class ${name}`, {
    method: 'PUT',
    path: `/resource_classes/${name}`,
    version: '1.7',
  });
}

/** The real service's consumer generation of one consumer (for follow-up writes). */
export async function consumerGeneration(pair: Pair, consumer: string): Promise<number | null> {
  const got = await pair.req(`consumer ${consumer}`, {
    method: 'GET',
    path: `/allocations/${consumer}`,
    version: '1.28',
  });
  return (got.real.body as { consumer_generation?: number }).consumer_generation ?? null;
}
