/** Set-up steps shared by the allocation, candidate and reshaper scenarios (helper B). */
import type { Pair } from '../pair.ts';
import { createProvider, setAggregates, setInventories, setTraits } from './a-support.ts';

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
export const provider = (pair: Pair, uuid: string, name: string, parent?: string) =>
  createProvider(pair, uuid, name, parent, '1.14');

/** Replaces a provider's inventories at 1.14 (reads its generation first). */
export const inventories = (
  pair: Pair,
  uuid: string,
  records: Readonly<Record<string, InventoryRecord>>,
) => setInventories(pair, uuid, records, '1.14');

/** Sets a provider's traits at 1.6 (reads its generation first). */
export const traits = (pair: Pair, uuid: string, names: readonly string[]) =>
  setTraits(pair, uuid, names, '1.6');

/** Sets a provider's aggregates in the 1.19 form (reads its generation first). */
export const aggregates = (pair: Pair, uuid: string, aggs: readonly string[]) =>
  setAggregates(pair, uuid, aggs, '1.19');

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
