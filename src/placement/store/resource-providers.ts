/**
 * Resource providers: creating, reading, renaming and moving (within and between trees),
 * deleting. A provider's `root_provider_id` is its tree's root (itself for a root); moving a
 * provider moves its whole subtree, so every provider of the subtree gets the new root.
 */
import type { Kysely } from 'kysely';
import { type Database, inTransaction, isDuplicateKeyError } from '../../db/index.ts';
import { isForeignKeyError } from './foreign-key.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;
type Timestamp = Date | string | null;

/** A provider as the API shows it. */
export interface ProviderDetail {
  readonly id: number;
  readonly uuid: string;
  readonly name: string | null;
  readonly generation: number;
  readonly parentUuid: string | null;
  readonly rootUuid: string;
  readonly createdAt: Timestamp;
  readonly updatedAt: Timestamp;
}

/** An object action refused (the real service's ObjectActionError, worded the same). */
export class ProviderActionError extends Error {
  constructor(action: 'create' | 'update', reason: string) {
    super(`Object action ${action} failed because: ${reason}`);
    this.name = 'ProviderActionError';
  }
}

/** Another provider has this uuid or name; `conflicts` lists `column: value`. */
export class DuplicateProviderError extends Error {
  readonly conflicts: readonly string[];
  constructor(conflicts: readonly string[]) {
    super(`duplicate resource provider ${conflicts.join(', ')}`);
    this.name = 'DuplicateProviderError';
    this.conflicts = conflicts;
  }
}

export class ProviderNotFoundError extends Error {
  constructor(uuid: string) {
    super(`No resource provider with uuid ${uuid} found`);
    this.name = 'ProviderNotFoundError';
  }
}

/** The provider has allocations. */
export class ProviderInUseError extends Error {
  constructor() {
    super('Resource provider has allocations.');
    this.name = 'ProviderInUseError';
  }
}

/** The provider is the parent of another. */
export class ProviderHasChildrenError extends Error {
  constructor() {
    super(
      'Cannot delete resource provider that is a parent of another. Delete child providers first.',
    );
    this.name = 'ProviderHasChildrenError';
  }
}

/** Providers with their root's and parent's uuids (the select every listing starts from). */
export function providerDetailQuery(db: Db) {
  return db
    .selectFrom('resource_providers as rp')
    .innerJoin('resource_providers as root', 'root.id', 'rp.root_provider_id')
    .leftJoin('resource_providers as parent', 'parent.id', 'rp.parent_provider_id')
    .select([
      'rp.id',
      'rp.uuid',
      'rp.name',
      'rp.generation',
      'rp.created_at',
      'rp.updated_at',
      'root.uuid as root_uuid',
      'parent.uuid as parent_uuid',
    ]);
}

export interface ProviderDetailRow {
  id: number | string;
  uuid: string;
  name: string | null;
  generation: number | string;
  created_at: Timestamp;
  updated_at: Timestamp;
  root_uuid: string;
  parent_uuid: string | null;
}

export function toProviderDetail(row: ProviderDetailRow): ProviderDetail {
  return {
    id: Number(row.id),
    uuid: row.uuid,
    name: row.name,
    generation: Number(row.generation),
    parentUuid: row.parent_uuid,
    rootUuid: row.root_uuid,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function getProviderDetail(db: Db, uuid: string): Promise<ProviderDetail | undefined> {
  const row = await providerDetailQuery(db).where('rp.uuid', '=', uuid).executeTakeFirst();
  return row === undefined ? undefined : toProviderDetail(row);
}

interface TreeIds {
  readonly id: number;
  readonly parentId: number | null;
  readonly rootId: number;
  readonly rootUuid: string;
}

/** A provider's own, parent and root ids (undefined when no provider has the uuid). */
async function treeIdsOf(db: Db, uuid: string): Promise<TreeIds | undefined> {
  const row = await db
    .selectFrom('resource_providers as rp')
    .innerJoin('resource_providers as root', 'root.id', 'rp.root_provider_id')
    .select(['rp.id', 'rp.parent_provider_id', 'rp.root_provider_id', 'root.uuid as root_uuid'])
    .where('rp.uuid', '=', uuid)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id: Number(row.id),
    parentId: row.parent_provider_id === null ? null : Number(row.parent_provider_id),
    rootId: Number(row.root_provider_id),
    rootUuid: row.root_uuid,
  };
}

/** Which of uuid / name another provider already holds (after a unique violation). */
async function conflictsOf(db: Db, uuid: string, name: string): Promise<string[]> {
  const rows = await db
    .selectFrom('resource_providers')
    .select(['uuid', 'name'])
    .where((eb) => eb.or([eb('uuid', '=', uuid), eb('name', '=', name)]))
    .execute();
  // One column, as PostgreSQL reports the first unique key it trips to the real service:
  // the name's when both are taken.
  if (rows.some((row) => row.name === name)) return [`name: ${name}`];
  return [`uuid: ${uuid}`];
}

export interface NewProvider {
  readonly uuid: string;
  readonly name: string;
  readonly parentUuid: string | null;
}

/** Creates a provider under its parent's tree, or as the root of a new tree. */
export async function createProvider(
  database: Database<PlacementTables>,
  provider: NewProvider,
): Promise<ProviderDetail> {
  if (provider.name === '') throw new ProviderActionError('create', 'name is required');
  try {
    return await inTransaction(database, async (trx) => {
      let parent: TreeIds | undefined;
      if (provider.parentUuid !== null) {
        if (provider.parentUuid === provider.uuid) {
          throw new ProviderActionError(
            'create',
            'parent provider UUID cannot be same as UUID. Please set parent provider UUID to ' +
              'None if there is no parent.',
          );
        }
        parent = await treeIdsOf(trx, provider.parentUuid);
        if (parent === undefined) {
          throw new ProviderActionError('create', 'parent provider UUID does not exist.');
        }
      }
      const now = new Date();
      const values = {
        uuid: provider.uuid,
        name: provider.name,
        generation: 0,
        root_provider_id: parent?.rootId ?? null,
        parent_provider_id: parent?.id ?? null,
        created_at: now,
        updated_at: null,
      };
      let id: number;
      if (database.caps.returning) {
        const row = await trx
          .insertInto('resource_providers')
          .values(values)
          .returning('id')
          .executeTakeFirstOrThrow();
        id = Number(row.id);
      } else {
        const result = await trx.insertInto('resource_providers').values(values).executeTakeFirst();
        id = Number(result.insertId);
      }
      let updatedAt: Date | null = null;
      if (parent === undefined) {
        // A root is its own root; setting that is an update, which stamps updated_at.
        updatedAt = new Date();
        await trx
          .updateTable('resource_providers')
          .set({ root_provider_id: id, updated_at: updatedAt })
          .where('id', '=', id)
          .execute();
      }
      return {
        id,
        uuid: provider.uuid,
        name: provider.name,
        generation: 0,
        parentUuid: provider.parentUuid,
        rootUuid: parent?.rootUuid ?? provider.uuid,
        createdAt: now,
        updatedAt,
      };
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) {
      throw new DuplicateProviderError(
        await conflictsOf(database.kysely, provider.uuid, provider.name),
      );
    }
    throw error;
  }
}

/** The ids of a provider and of every provider below it. */
async function subtreeIds(db: Db, me: TreeIds): Promise<number[]> {
  const rows = await db
    .selectFrom('resource_providers')
    .select(['id', 'parent_provider_id'])
    .where('root_provider_id', '=', me.rootId)
    .execute();
  const children = new Map<number, number[]>();
  for (const row of rows) {
    if (row.parent_provider_id === null) continue;
    const parentId = Number(row.parent_provider_id);
    const list = children.get(parentId) ?? [];
    list.push(Number(row.id));
    children.set(parentId, list);
  }
  const result: number[] = [];
  const pending = [me.id];
  while (pending.length > 0) {
    const id = pending.pop() as number;
    result.push(id);
    pending.push(...(children.get(id) ?? []));
  }
  return result;
}

export interface ProviderChanges {
  readonly name: string;
  /** Undefined keeps the current parent; null makes the provider a root. */
  readonly parentUuid?: string | null;
}

/**
 * Renames and (re/un)parents a provider. Before 1.37 (`allowReparenting` false) a provider
 * with a parent keeps it; a root may get one. The generation does not change.
 */
export async function updateProvider(
  database: Database<PlacementTables>,
  uuid: string,
  changes: ProviderChanges,
  allowReparenting: boolean,
): Promise<ProviderDetail> {
  try {
    return await inTransaction(database, async (trx) => {
      const me = await treeIdsOf(trx, uuid);
      const current = await getProviderDetail(trx, uuid);
      if (me === undefined || current === undefined) throw new ProviderNotFoundError(uuid);
      const parentUuid = changes.parentUuid === undefined ? current.parentUuid : changes.parentUuid;
      let newParentId = me.parentId;
      let newRootId = me.rootId;
      if (parentUuid !== null) {
        const parent = await treeIdsOf(trx, parentUuid);
        if (parent === undefined) {
          throw new ProviderActionError('create', 'parent provider UUID does not exist.');
        }
        if (me.parentId !== null && me.parentId !== parent.id && !allowReparenting) {
          throw new ProviderActionError(
            'update',
            're-parenting a provider is not currently allowed.',
          );
        }
        newParentId = parent.id;
        newRootId = parent.rootId;
      } else if (me.parentId !== null) {
        if (!allowReparenting) {
          throw new ProviderActionError(
            'update',
            'un-parenting a provider is not currently allowed.',
          );
        }
        newParentId = null;
        newRootId = me.id;
      }
      const moved = newParentId !== me.parentId || newRootId !== me.rootId;
      let subtree: number[] = [];
      if (moved) {
        subtree = await subtreeIds(trx, me);
        if (newParentId !== null && subtree.includes(newParentId)) {
          throw new ProviderActionError(
            'update',
            'creating loop in the provider tree is not allowed.',
          );
        }
      }
      const renamed = changes.name !== current.name;
      if (renamed || moved) {
        const now = new Date();
        await trx
          .updateTable('resource_providers')
          .set({
            name: changes.name,
            parent_provider_id: newParentId,
            root_provider_id: newRootId,
            updated_at: now,
          })
          .where('id', '=', me.id)
          .execute();
        const below = subtree.filter((id) => id !== me.id);
        if (newRootId !== me.rootId && below.length > 0) {
          await trx
            .updateTable('resource_providers')
            .set({ root_provider_id: newRootId, updated_at: now })
            .where('id', 'in', below)
            .execute();
        }
      }
      const updated = await getProviderDetail(trx, uuid);
      if (updated === undefined) throw new ProviderNotFoundError(uuid);
      return updated;
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new DuplicateProviderError([`name: ${changes.name}`]);
    if (isForeignKeyError(error)) {
      // The new parent went away between the check and the write.
      throw new ProviderActionError('update', 'parent provider UUID does not exist.');
    }
    throw error;
  }
}

/**
 * Deletes a provider with its inventories and its trait and aggregate links. Refused when it
 * has children or allocations.
 */
export async function deleteProvider(
  database: Database<PlacementTables>,
  uuid: string,
): Promise<void> {
  try {
    await inTransaction(database, async (trx) => {
      const me = await trx
        .selectFrom('resource_providers')
        .select('id')
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      if (me === undefined) throw new ProviderNotFoundError(uuid);
      const id = Number(me.id);
      const child = await trx
        .selectFrom('resource_providers')
        .select('id')
        .where('parent_provider_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      if (child !== undefined) throw new ProviderHasChildrenError();
      const allocation = await trx
        .selectFrom('allocations')
        .select('id')
        .where('resource_provider_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      if (allocation !== undefined) throw new ProviderInUseError();
      await trx.deleteFrom('inventories').where('resource_provider_id', '=', id).execute();
      await trx
        .deleteFrom('resource_provider_aggregates')
        .where('resource_provider_id', '=', id)
        .execute();
      await trx
        .deleteFrom('resource_provider_traits')
        .where('resource_provider_id', '=', id)
        .execute();
      // Its own root reference would block the delete.
      await trx
        .updateTable('resource_providers')
        .set({ root_provider_id: null })
        .where('id', '=', id)
        .where('root_provider_id', '=', id)
        .execute();
      const result = await trx
        .deleteFrom('resource_providers')
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw new ProviderNotFoundError(uuid);
    });
  } catch (error) {
    // A child appeared between the check and the delete.
    if (isForeignKeyError(error)) throw new ProviderHasChildrenError();
    throw error;
  }
}
