/**
 * A features table: each behaviour an API gained at some microversion gets a name, and code
 * asks `request.microversion.atLeast(FEATURES.consumerGenerations)` instead of comparing with
 * a version literal. The table is checked against the API's version list when it is defined,
 * so a gate naming a version the API does not list fails the process at start, not a request.
 */
import { formatVersion, parseVersion, type Version } from './version.ts';
import { versionRange } from './version-list.ts';

/** One named microversion: the version of its API that introduced a behaviour. */
export class FeatureGate implements Version {
  readonly name: string;
  /** The version as the API's list writes it, `X.Y`. */
  readonly text: string;
  readonly major: number;
  readonly minor: number;
  // The API the gate belongs to, by identity of its version list: windows check that all
  // their gates come from one table (a bare metal gate has no meaning on a Placement route).
  readonly #versions: readonly string[];

  constructor(name: string, text: string, versions: readonly string[]) {
    const version = parseVersion(text);
    this.name = name;
    this.text = text;
    this.major = version.major;
    this.minor = version.minor;
    this.#versions = versions;
    Object.freeze(this);
  }

  /** True when both gates come from the same API's table. */
  sameApi(other: FeatureGate): boolean {
    return this.#versions === other.#versions;
  }

  /** `consumerGenerations (1.28)`: how messages name a gate. */
  toString(): string {
    return `${this.name} (${this.text})`;
  }
}

/** The gates of one API, by name; the names are the keys of the table given to `defineFeatures`. */
export type FeatureTable<Name extends string> = { readonly [N in Name]: FeatureGate };

/** A gate is wrong: raised by `defineFeatures`, when the table is defined. */
export class FeatureTableError extends Error {
  readonly gate: string;
  readonly version: string;

  constructor(gate: string, version: string, problem: string) {
    super(`Feature gate ${JSON.stringify(gate)} (${JSON.stringify(version)}): ${problem}`);
    this.name = 'FeatureTableError';
    this.gate = gate;
    this.version = version;
  }
}

/**
 * Builds an API's features table from its version list (the same array its negotiator serves)
 * and `{gateName: 'X.Y'}`. Every gate must name a version exactly as the list writes it; the
 * list itself must be strictly ascending (`versionRange` rules). Several gates may share a
 * version (a microversion that changed two things). When the list is declared `as const`, a
 * gate naming an unlisted version is also a type error.
 */
export function defineFeatures<
  const Versions extends readonly string[],
  const Gates extends Readonly<Record<string, Versions[number]>>,
>(versions: Versions, gates: Gates): FeatureTable<Extract<keyof Gates, string>> {
  const range = versionRange(versions);
  const listed = new Set(versions);
  const table: Record<string, FeatureGate> = {};
  for (const [name, text] of Object.entries(gates)) {
    if (typeof text !== 'string' || !listed.has(text)) {
      throw new FeatureTableError(
        name,
        String(text),
        `not a version of this API's list (${range.min} to ${range.max}, as listed)`,
      );
    }
    table[name] = new FeatureGate(name, text, versions);
  }
  return Object.freeze(table) as FeatureTable<Extract<keyof Gates, string>>;
}

/**
 * The listed versions no gate names, the first (the base API) excepted. A version with no gate
 * changed nothing the code can ask about; a service's test can require this to be empty so
 * that adding a version always comes with its gate.
 */
export function ungatedVersions(
  versions: readonly string[],
  table: Readonly<Record<string, FeatureGate>>,
): string[] {
  const named = new Set(Object.values(table).map((gate) => formatVersion(gate)));
  return versions.slice(1).filter((text) => !named.has(formatVersion(parseVersion(text))));
}
