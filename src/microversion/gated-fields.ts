import type { FeatureGate } from './features.ts';
import { compareVersions, type Version } from './version.ts';

// Bounds the memo: a service answers at a few dozen versions at most.
const MAX_MEMO = 1024;
const KEY_BASE = 1_000_000;

/**
 * The fields (or links, or query parameters) of a representation and the gate that brought
 * each, in the order they are shown; `null` for those present at every version. `at(version)`
 * is the list a handler shows at a request's version, computed once per version.
 *
 *     const NODE_FIELDS = new GatedFields({ uuid: null, owner: FEATURES.nodeOwner, ... });
 *     for (const field of NODE_FIELDS.at(request.microversion.version)) body[field] = node[field];
 */
export class GatedFields<Field extends string> {
  readonly gates: Readonly<Record<Field, FeatureGate | null>>;
  readonly #entries: readonly (readonly [Field, FeatureGate | null])[];
  readonly #memo = new Map<number, readonly Field[]>();

  constructor(gates: Readonly<Record<Field, FeatureGate | null>>) {
    this.gates = Object.freeze({ ...gates });
    this.#entries = Object.entries(this.gates) as [Field, FeatureGate | null][];
    const gated = this.#entries.flatMap(([, gate]) => (gate === null ? [] : [gate]));
    const first = gated[0];
    for (const gate of gated) {
      if (first !== undefined && !gate.sameApi(first)) {
        throw new Error(`Gated fields mix features tables: ${gate} and ${first}`);
      }
    }
  }

  /** The fields present at `version`, in declaration order (the same array for the same version). */
  at(version: Version): readonly Field[] {
    const cacheable = version.major < KEY_BASE && version.minor < KEY_BASE;
    const key = version.major * KEY_BASE + version.minor;
    const known = cacheable ? this.#memo.get(key) : undefined;
    if (known !== undefined) return known;
    const fields = Object.freeze(
      this.#entries
        .filter(([, gate]) => gate === null || compareVersions(version, gate) >= 0)
        .map(([field]) => field),
    );
    if (cacheable && this.#memo.size < MAX_MEMO) this.#memo.set(key, fields);
    return fields;
  }

  /** Whether `field` is present at `version`. */
  has(field: Field, version: Version): boolean {
    const gate = this.gates[field];
    return gate === null || compareVersions(version, gate) >= 0;
  }
}
