/**
 * The order in which CPython 3.11 (the real service's interpreter) iterates a set of ids,
 * reproduced for the one place where it shows: the real service replaces a provider's traits
 * with `to_add = set(wanted ids) - set(existing ids)` and inserts one row per id `for id in
 * to_add`. PostgreSQL hands those rows back in the order they were stored, and the real
 * service shows them in that order (provider summaries, docs/placement.md), so Baton stores
 * them in the same order. Pure.
 *
 * An int is its own hash, so a set is an open-addressing table indexed by `id & mask`:
 * collisions probe the next nine slots, then jump by `i * 5 + 1 + perturb`; the table grows
 * fourfold when three fifths full. Ids are non-negative safe integers (database ids).
 */

const MIN_SIZE = 8;
const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 32; // perturb >>= 5
const DUMMY = -1;
/** A slot: empty, a deleted entry (dummy) or an id. */
type Slot = number | undefined;

class IntSet {
  table: Slot[] = new Array(MIN_SIZE);
  mask = MIN_SIZE - 1;
  fill = 0;
  used = 0;

  static of(ids: Iterable<number>): IntSet {
    const set = new IntSet();
    for (const id of ids) set.add(id);
    return set;
  }

  *[Symbol.iterator](): Generator<number> {
    for (const slot of this.table) if (slot !== undefined && slot !== DUMMY) yield slot;
  }

  has(id: number): boolean {
    return this.slotOf(id) !== undefined;
  }

  get size(): number {
    return this.used;
  }

  /** set_add_entry (no dummies are ever met here: sets that lose entries take no more). */
  add(id: number): void {
    let i = id % (this.mask + 1);
    let perturb = id;
    for (;;) {
      const probes = i + LINEAR_PROBES <= this.mask ? LINEAR_PROBES : 0;
      for (let j = i; j <= i + probes; j++) {
        const slot = this.table[j];
        if (slot === id) return;
        if (slot === undefined) {
          this.table[j] = id;
          this.fill++;
          this.used++;
          if (this.fill * 5 >= this.mask * 3) this.resize(this.grownMinimum());
          return;
        }
      }
      perturb = Math.floor(perturb / PERTURB_SHIFT);
      i = (i * 5 + 1 + perturb) % (this.mask + 1);
    }
  }

  /** set_discard_entry: the slot becomes a dummy, iteration order is kept. */
  discard(id: number): void {
    const at = this.slotOf(id);
    if (at === undefined) return;
    this.table[at] = DUMMY;
    this.used--;
  }

  grownMinimum(): number {
    return this.used > 50000 ? this.used * 2 : this.used * 4;
  }

  /** set_table_resize: a table larger than `minUsed`, live entries reinserted in slot order. */
  resize(minUsed: number): void {
    let size = MIN_SIZE;
    while (size <= minUsed) size *= 2;
    const old = this.table;
    this.table = new Array(size);
    this.mask = size - 1;
    this.fill = 0;
    this.used = 0;
    for (const slot of old) if (slot !== undefined && slot !== DUMMY) this.insertClean(slot);
  }

  /** set_insert_clean: into a table known to hold neither the id nor dummies. */
  insertClean(id: number): void {
    let i = id % (this.mask + 1);
    let perturb = id;
    for (;;) {
      const probes = i + LINEAR_PROBES <= this.mask ? LINEAR_PROBES : 0;
      for (let j = i; j <= i + probes; j++) {
        if (this.table[j] === undefined) {
          this.table[j] = id;
          this.fill++;
          this.used++;
          return;
        }
      }
      perturb = Math.floor(perturb / PERTURB_SHIFT);
      i = (i * 5 + 1 + perturb) % (this.mask + 1);
    }
  }

  /** set_copy (set_merge into an empty set). */
  copy(): IntSet {
    const copy = new IntSet();
    if (this.used * 5 >= copy.mask * 3) copy.resize(this.used * 2);
    if (copy.mask === this.mask && this.fill === this.used) {
      copy.table = [...this.table];
      copy.fill = this.fill;
      copy.used = this.used;
    } else {
      for (const id of this) copy.insertClean(id);
    }
    return copy;
  }

  /** set_difference: `this - other`. */
  minus(other: IntSet): IntSet {
    if (this.used >> 2 > other.used) {
      // set_copy_and_difference, then set_difference_update_internal's cleanup.
      const result = this.copy();
      for (const id of other) result.discard(id);
      if (result.fill - result.used > Math.floor(result.mask / 4)) {
        result.resize(result.grownMinimum());
      }
      return result;
    }
    const result = new IntSet();
    for (const id of this) if (!other.has(id)) result.add(id);
    return result;
  }

  private slotOf(id: number): number | undefined {
    let i = id % (this.mask + 1);
    let perturb = id;
    for (;;) {
      const probes = i + LINEAR_PROBES <= this.mask ? LINEAR_PROBES : 0;
      for (let j = i; j <= i + probes; j++) {
        const slot = this.table[j];
        if (slot === id) return j;
        if (slot === undefined) return undefined;
      }
      perturb = Math.floor(perturb / PERTURB_SHIFT);
      i = (i * 5 + 1 + perturb) % (this.mask + 1);
    }
  }
}

/**
 * The ids of `set(wanted) - set(existing)` in CPython's iteration order; `wanted` in the
 * order the set was built from.
 */
export function pythonSetDifferenceOrder(
  wanted: Iterable<number>,
  existing: Iterable<number>,
): number[] {
  return [...IntSet.of(wanted).minus(IntSet.of(existing))];
}

/** The ids of `set(ids)` in CPython's iteration order. */
export function pythonSetOrder(ids: Iterable<number>): number[] {
  return [...IntSet.of(ids)];
}
