/**
 * Lazy cartesian products and a shared work budget: candidates are enumerated one at a
 * time so a limit or the budget stops the work, never a product built whole in memory.
 */

/** Counts combinations examined; once spent, every enumeration stops early. */
export class WorkBudget {
  #remaining: number;
  #exhausted = false;

  constructor(combinations: number) {
    this.#remaining = combinations;
  }

  /** Takes one unit; false once the budget is spent. */
  take(): boolean {
    if (this.#remaining <= 0) {
      this.#exhausted = true;
      return false;
    }
    this.#remaining--;
    return true;
  }

  /** Records that some other bound (per-tree) cut an enumeration short. */
  cut(): void {
    this.#exhausted = true;
  }

  /** Whether some enumeration was cut short. */
  get exhausted(): boolean {
    return this.#exhausted;
  }
}

/** Every pick of one element per list, first list varying slowest. */
export function* product<T>(lists: readonly (readonly T[])[]): Generator<T[]> {
  if (lists.some((list) => list.length === 0)) return;
  const index = lists.map(() => 0);
  for (;;) {
    yield lists.map((list, i) => list[index[i] as number] as T);
    let position = lists.length - 1;
    while (position >= 0) {
      const next = (index[position] as number) + 1;
      if (next < (lists[position] as readonly T[]).length) {
        index[position] = next;
        break;
      }
      index[position] = 0;
      position--;
    }
    if (position < 0) return;
  }
}

/** Takes from each iterator in turn until all are done (breadth-first over anchors). */
export function* roundRobin<T>(iterators: Iterator<T>[]): Generator<T> {
  let active = iterators;
  while (active.length > 0) {
    const still: Iterator<T>[] = [];
    for (const iterator of active) {
      const step = iterator.next();
      if (step.done) continue;
      yield step.value;
      still.push(iterator);
    }
    active = still;
  }
}

/** Fisher–Yates, in place. */
export function shuffle<T>(items: T[], random: () => number = Math.random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}
