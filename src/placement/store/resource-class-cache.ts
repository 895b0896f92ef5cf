/**
 * Resource class names ↔ ids, cached per process. A name or id this process has not seen
 * (created by another process sharing the database) triggers one reload before it is
 * declared unknown. Processes that create or delete classes call `invalidate`.
 */
import type { Kysely } from 'kysely';
import type { PlacementTables } from './tables.ts';

export class ResourceClassCache {
  #byName = new Map<string, number>();
  #byId = new Map<number, string>();
  #loaded = false;

  async #reload(db: Kysely<PlacementTables>): Promise<void> {
    const rows = await db.selectFrom('resource_classes').select(['id', 'name']).execute();
    this.#byName = new Map(rows.map((row) => [row.name, Number(row.id)]));
    this.#byId = new Map(rows.map((row) => [Number(row.id), row.name]));
    this.#loaded = true;
  }

  /** The id of a class name, or undefined when no such class exists. */
  async idOf(db: Kysely<PlacementTables>, name: string): Promise<number | undefined> {
    const cached = this.#byName.get(name);
    if (cached !== undefined) return cached;
    await this.#reload(db);
    return this.#byName.get(name);
  }

  /** The name of a class id (ids come from rows, so a miss means a class made elsewhere). */
  async nameOf(db: Kysely<PlacementTables>, id: number): Promise<string> {
    const cached = this.#byId.get(id);
    if (cached !== undefined) return cached;
    await this.#reload(db);
    return this.#byId.get(id) ?? `UNKNOWN_${id}`;
  }

  /** Every known class, reloaded when never loaded. */
  async all(db: Kysely<PlacementTables>): Promise<ReadonlyMap<string, number>> {
    if (!this.#loaded) await this.#reload(db);
    return this.#byName;
  }

  invalidate(): void {
    this.#loaded = false;
    this.#byName = new Map();
    this.#byId = new Map();
  }
}
