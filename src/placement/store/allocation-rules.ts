/**
 * What an allocation write is and the rules it must pass, without I/O: the write's shape,
 * the refusals (with the real service's words), the consumer-generation check, turning a
 * write into rows, and the capacity and unit checks. Both write paths (allocations.ts, and
 * allocation-write-pg.ts on PostgreSQL) apply them in the same order.
 */
import type { ConsumerRow } from './consumers.ts';
import type { OwnerIds } from './projects-users.ts';

/** One consumer's part of a write: its new allocations (none means remove them all). */
export interface ConsumerWrite {
  readonly consumerUuid: string;
  readonly owner: OwnerIds;
  /** The type's id from 1.38; undefined before (an existing consumer keeps its type). */
  readonly consumerTypeId?: number;
  /** From 1.28 the caller states the generation it saw (null: a new consumer). */
  readonly expectedGeneration?: { readonly value: number | null };
  /** Provider uuid → class name → amount, in request order. */
  readonly allocations: readonly {
    readonly providerUuid: string;
    readonly resources: readonly (readonly [string, number])[];
  }[];
}

export interface WriteOptions {
  /**
   * `put` checks that providers exist before looking at the consumer (PUT's order); `post`
   * checks every consumer first (POST's order).
   */
  readonly order: 'put' | 'post';
  /** Class name → id, undefined for names that are no resource class. */
  readonly classIds: ReadonlyMap<string, number | undefined>;
  /** How many times a lost provider-generation race is retried (the real default: 10). */
  readonly retries?: number;
}

export class ProviderNotFoundError extends Error {
  override name = 'ProviderNotFoundError';
  readonly providerUuid: string;
  constructor(providerUuid: string) {
    super(`no resource provider ${providerUuid}`);
    this.providerUuid = providerUuid;
  }
}

/** The consumer generation the caller gave is not the stored one. */
export class ConsumerGenerationConflictError extends Error {
  override name = 'ConsumerGenerationConflictError';
}

export class ResourceClassNotFoundError extends Error {
  override name = 'ResourceClassNotFoundError';
  constructor(resourceClass: string) {
    super(`No such resource class ${resourceClass}.`);
  }
}

/** No inventory, or the amount breaks capacity or min_unit/max_unit/step_size. */
export class InvalidInventoryError extends Error {
  override name = 'InvalidInventoryError';
}

export interface ProviderRef {
  readonly id: number;
  readonly uuid: string;
  readonly generation: number;
}

export interface InventoryRow {
  readonly total: number;
  readonly reserved: number;
  readonly minUnit: number;
  readonly maxUnit: number;
  readonly stepSize: number;
  readonly allocationRatio: number;
  /** What consumers outside this write hold. */
  readonly used: number;
}

export interface PlannedAllocation {
  readonly consumerUuid: string;
  readonly provider: ProviderRef;
  readonly classId: number;
  readonly className: string;
  readonly used: number;
}

/** The key of an inventory row in the maps the checks read: provider id and class id. */
export function inventoryKey(providerId: number, classId: number): string {
  return `${providerId} ${classId}`;
}

/** The distinct providers a write names, in request order. */
export function providersNamed(writes: readonly ConsumerWrite[]): string[] {
  return [...new Set(writes.flatMap((w) => w.allocations.map((a) => a.providerUuid)))];
}

/** The ids of the known classes a write names (unknown names are refused later, in order). */
export function classIdsNamed(
  writes: readonly ConsumerWrite[],
  classIds: ReadonlyMap<string, number | undefined>,
): number[] {
  const ids = new Set<number>();
  for (const write of writes) {
    for (const { resources } of write.allocations) {
      for (const [name] of resources) {
        const id = classIds.get(name);
        if (id !== undefined) ids.add(id);
      }
    }
  }
  return [...ids];
}

/** Every provider the write names must exist. */
export function checkProvidersExist(
  providerUuids: readonly string[],
  providers: ReadonlyMap<string, ProviderRef>,
): void {
  for (const uuid of providerUuids) {
    if (!providers.has(uuid)) throw new ProviderNotFoundError(uuid);
  }
}

function formatGeneration(value: number | null): string {
  return value === null ? 'None' : String(value);
}

/**
 * The consumer generation check (the consumer-generation spec): a new consumer must be announced with null, an
 * existing one with its stored generation. Nothing to check before 1.28.
 */
export function checkConsumerGeneration(write: ConsumerWrite, found: ConsumerRow | undefined) {
  const expected = write.expectedGeneration;
  if (expected === undefined) return;
  if (found === undefined) {
    if (expected.value !== null) {
      throw new ConsumerGenerationConflictError(
        `consumer generation conflict - expected null but got ${expected.value}`,
      );
    }
  } else if (found.generation !== expected.value) {
    throw new ConsumerGenerationConflictError(
      `consumer generation conflict - expected ${found.generation} but got ${formatGeneration(expected.value)}`,
    );
  }
}

/** The owner and type a write leaves an existing consumer with, and whether they change. */
export function ownerAfter(write: ConsumerWrite, consumer: ConsumerRow) {
  const consumerTypeId = write.consumerTypeId ?? consumer.consumerTypeId;
  const changed =
    consumer.projectId !== write.owner.projectId ||
    consumer.userId !== write.owner.userId ||
    consumer.consumerTypeId !== consumerTypeId;
  return {
    projectId: write.owner.projectId,
    userId: write.owner.userId,
    consumerTypeId,
    changed,
  };
}

/** The write as allocation rows; an unknown class name is refused here. */
export function planAllocations(
  writes: readonly ConsumerWrite[],
  providers: ReadonlyMap<string, ProviderRef>,
  classIds: ReadonlyMap<string, number | undefined>,
): PlannedAllocation[] {
  const planned: PlannedAllocation[] = [];
  for (const write of writes) {
    for (const { providerUuid, resources } of write.allocations) {
      const provider = providers.get(providerUuid) as ProviderRef;
      for (const [className, used] of resources) {
        const classId = classIds.get(className);
        if (classId === undefined) throw new ResourceClassNotFoundError(className);
        planned.push({ consumerUuid: write.consumerUuid, provider, classId, className, used });
      }
    }
  }
  return planned;
}

/** An inventory row as the database returns it (numbers may come back as strings). */
export function inventoryRow(row: {
  total: number | null;
  reserved: number | null;
  min_unit: number | null;
  max_unit: number | null;
  step_size: number | null;
  allocation_ratio: number | null;
  used: number | string | null;
}): InventoryRow {
  return {
    total: Number(row.total),
    reserved: Number(row.reserved),
    minUnit: Number(row.min_unit),
    maxUnit: Number(row.max_unit),
    stepSize: Number(row.step_size),
    allocationRatio: Number(row.allocation_ratio),
    used: Number(row.used ?? 0),
  };
}

/** Deadlocks and serialization failures: the whole transaction is worth running again. */
export function isTransientConflict(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  return (
    e.code === '40P01' || e.code === '40001' || e.errno === 1213 || e.code === 'ER_LOCK_DEADLOCK'
  );
}

/** The real service's capacity and constraint checks, in its order and words. */
export function checkCapacity(
  planned: readonly PlannedAllocation[],
  inventories: ReadonlyMap<string, InventoryRow>,
  classIds: ReadonlyMap<string, number | undefined>,
): void {
  if (planned.length === 0) return;
  const withInventory = new Set<string>();
  for (const key of inventories.keys()) withInventory.add(key.split(' ')[0] as string);
  const idOf = new Map(planned.map((a) => [a.provider.uuid, String(a.provider.id)]));
  const missing = [...new Set(planned.map((a) => a.provider.uuid))].filter(
    (uuid) => !withInventory.has(idOf.get(uuid) as string),
  );
  if (missing.length > 0) {
    const classes = [...new Set(planned.map((a) => a.className))].filter(
      (name) => classIds.get(name) !== undefined,
    );
    throw new InvalidInventoryError(
      `Inventory for '${classes.join(', ')}' on resource provider '${missing.join(', ')}' invalid.`,
    );
  }
  const sums = new Map<string, number>();
  for (const a of planned) {
    const key = inventoryKey(a.provider.id, a.classId);
    const sum = (sums.get(key) ?? 0) + a.used;
    sums.set(key, sum);
    if (a.used === 0) continue;
    const inventory = inventories.get(key);
    const where = `'${a.className}' on resource provider '${a.provider.uuid}'`;
    if (inventory === undefined) throw new InvalidInventoryError(`Inventory for ${where} invalid.`);
    if (
      a.used < inventory.minUnit ||
      a.used > inventory.maxUnit ||
      a.used % inventory.stepSize !== 0
    ) {
      throw new InvalidInventoryError(
        `Unable to create allocation for ${where}. The requested amount would violate inventory constraints.`,
      );
    }
    const capacity = (inventory.total - inventory.reserved) * inventory.allocationRatio;
    if (capacity < inventory.used + a.used || capacity < inventory.used + sum) {
      throw new InvalidInventoryError(
        `Unable to create allocation for ${where}. The requested amount would exceed the capacity.`,
      );
    }
  }
}
