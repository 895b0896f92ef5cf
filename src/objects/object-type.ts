/**
 * An object type: a name, its version history (one step per version, the
 * last being the current version), its fields, and the signatures of its
 * remote methods. Types are plain values passed around explicitly; nothing is
 * registered as a side effect of defining one.
 */
import { UnknownFieldError, UnknownVersionError } from './errors.ts';
import type { FieldSpec, ValueOf, WireDecoder } from './fields/field.ts';
import { compareObjectVersions, isObjectVersion } from './version.ts';
import { VersionedObject } from './versioned-object.ts';

/** An object type's fields, by name. */
export type FieldMap = Record<string, FieldSpec>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The keys under which primitives are written: `<serial>.name`, and `<project>` as namespace. */
export interface ObjectNamespace {
  readonly project: string;
  readonly serial: string;
}

/**
 * One version of a type. `upgrade` moves data from the previous version's
 * fields into this one's; `downgrade` does the reverse. Neither needs to
 * handle the fields this version added: converting down removes them after
 * `downgrade`, converting up fills those `upgrade` left unset with their
 * unavailable value (conversion.ts). What these two rules set is a change, saved.
 */
export interface VersionStep {
  readonly version: string;
  /** What changed in this version, one line. */
  readonly note: string;
  /** Fields that first exist in this version. */
  readonly added?: readonly string[];
  /** Added fields' values in an object converted up from an older version (default null). */
  readonly unavailableValues?: Readonly<Record<string, unknown>>;
  /** Changes an object read at the previous version into this one. */
  readonly upgrade?: (obj: VersionedObject) => void;
  /** Changes an object of this version for a reader of the previous one. */
  readonly downgrade?: (obj: VersionedObject) => void;
}

/** A parameter of a remotable method, as the fingerprint describes it. */
export interface MethodParam {
  readonly name: string;
  /** Present when the parameter is optional. */
  readonly default?: unknown;
  readonly kind?: 'positional' | 'rest' | 'keywords' | 'keyword-only';
}

/** The signature of a method that can be called remotely (it feeds the fingerprint). */
export interface RemotableMethod {
  readonly static?: boolean;
  readonly params: readonly (string | MethodParam)[];
}

/** What defineObjectType takes: the name, namespace, fields and version history of a type. */
export interface ObjectTypeDefinition<F extends FieldMap> {
  readonly name: string;
  readonly namespace: ObjectNamespace;
  readonly fields: F;
  /** Every version the type ever had, oldest first; the last one is current. */
  readonly history: readonly VersionStep[];
  readonly remotable?: Readonly<Record<string, RemotableMethod>>;
  /** For list types: the version of the child objects at each list version. */
  readonly childVersions?: Readonly<Record<string, string>>;
  /**
   * Runs on every conversion to another version, after the steps, with the target version:
   * for a rule that depends on the target rather than on the versions crossed (Ironic's Port
   * copies a tenant VIF on any conversion to 1.8 or later, up or down).
   */
  readonly onConversion?: ConversionHook;
}

/** Called on every conversion to another version, up or down, after the steps, with the target. */
export type ConversionHook = (obj: VersionedObject, target: string) => void;

/** A versioned object type: its fields, its versions and the fields each version has. */
export class ObjectType<F extends FieldMap = FieldMap> {
  readonly name: string;
  readonly namespace: ObjectNamespace;
  readonly fields: F;
  readonly history: readonly VersionStep[];
  readonly remotable: Readonly<Record<string, RemotableMethod>>;
  readonly childVersions: Readonly<Record<string, string>> | undefined;
  readonly onConversion: ConversionHook | undefined;
  /** The current (latest) version. */
  readonly version: string;
  readonly fieldNames: readonly string[];
  /** The field names in code-unit order: the order fingerprints describe them in. */
  readonly sortedFieldNames: readonly string[];
  readonly specs: readonly FieldSpec[];
  /**
   * Each field's coercion, by position: one array read instead of a load of `coerce` from
   * field types of a dozen different shapes (a megamorphic site on every assignment). Called
   * without `this`, as FieldType requires (a bound function would add a call through V8's
   * trampoline).
   */
  readonly coercers: readonly ((value: unknown) => unknown)[];
  /** Each field's wire decoding, by position; undefined where the wire value is the input. */
  readonly decoders: readonly (WireDecoder | undefined)[];
  /** Each field's position in `fieldNames` (read directly on the hot path of `assign`). */
  readonly positions: ReadonlyMap<string, number>;
  readonly #stepIndex = new Map<string, number>();
  readonly #fieldsAt = new Map<string, ReadonlySet<string>>();
  readonly #positionsAt = new Map<string, readonly number[]>();
  readonly #laterPositions = new Map<string, readonly number[]>();

  constructor(definition: ObjectTypeDefinition<F>) {
    this.name = definition.name;
    this.namespace = definition.namespace;
    this.fields = definition.fields;
    this.history = definition.history;
    this.remotable = definition.remotable ?? {};
    this.childVersions = definition.childVersions;
    this.onConversion = definition.onConversion;
    this.fieldNames = Object.keys(definition.fields);
    this.sortedFieldNames = [...this.fieldNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.specs = this.fieldNames.map((name) => definition.fields[name] as FieldSpec);
    this.coercers = this.specs.map((spec) => spec.type.coerce);
    this.decoders = this.specs.map((spec) => spec.type.fromPrimitive);
    this.positions = new Map(this.fieldNames.map((name, i) => [name, i]));
    const last = definition.history.at(-1);
    if (last === undefined)
      throw new RangeError(`${this.name}: history needs at least one version`);
    this.version = last.version;
    this.#checkNames();
    this.#checkHistory();
  }

  /**
   * Names are identifiers, as they are in every oslo.versionedobjects peer (Python attributes
   * and keyword arguments) and in the database columns fields map to; a field type's kind is a
   * word. The fingerprint's description writes them as they are, without quoting.
   */
  #checkNames(): void {
    const check = (what: string, name: string) => {
      if (!IDENTIFIER.test(name))
        throw new RangeError(`${this.name}: ${what} ${JSON.stringify(name)} is not an identifier`);
    };
    check('type name', this.name);
    for (const name of this.fieldNames) {
      check('field name', name);
      const kind = (this.fields[name] as FieldSpec).type.kind;
      if (!IDENTIFIER.test(kind))
        throw new RangeError(
          `${this.name}.${name}: field kind ${JSON.stringify(kind)} is not a word`,
        );
    }
    for (const [method, signature] of Object.entries(this.remotable)) {
      check('remote method', method);
      for (const param of signature.params)
        check(`parameter of ${method}`, typeof param === 'string' ? param : param.name);
    }
  }

  #checkHistory(): void {
    let previous: string | undefined;
    const addedSoFar = new Set<string>();
    this.history.forEach((step, i) => {
      if (!isObjectVersion(step.version) || step.version.split('.').length !== 2) {
        throw new RangeError(`${this.name}: '${step.version}' is not an X.Y version`);
      }
      if (previous !== undefined && compareObjectVersions(step.version, previous) <= 0) {
        throw new RangeError(`${this.name}: history must be in increasing version order`);
      }
      for (const field of step.added ?? []) {
        if (!this.positions.has(field)) throw new UnknownFieldError(this.name, field);
        if (addedSoFar.has(field)) throw new RangeError(`${this.name}: '${field}' added twice`);
        addedSoFar.add(field);
      }
      this.#stepIndex.set(step.version, i);
      previous = step.version;
    });
    for (const [listVersion, childVersion] of Object.entries(this.childVersions ?? {})) {
      if (!this.#stepIndex.has(listVersion))
        throw new UnknownVersionError(this.name, listVersion, this.knownVersions());
      if (!isObjectVersion(childVersion))
        throw new RangeError(`${this.name}: bad child version '${childVersion}'`);
    }
  }

  /** Creates an instance at the current version; the given fields are set and marked changed. */
  create(values?: { [K in keyof F]?: ValueOf<F[K]> }): VersionedObject<F> {
    const obj = new VersionedObject<F>(this, this.version);
    if (values !== undefined) {
      for (const name of Object.keys(values)) obj.assign(name, values[name]);
    }
    return obj;
  }

  /** Index of a field in the slot array, or -1. */
  fieldIndex(name: string): number {
    return this.positions.get(name) ?? -1;
  }

  /** Whether the type has this field (at its latest version). */
  hasField(name: string): boolean {
    return this.positions.has(name);
  }

  /** The type's versions, oldest first. */
  knownVersions(): string[] {
    return this.history.map((step) => step.version);
  }

  /** Whether the type has this version. */
  isKnownVersion(version: string): boolean {
    return this.#stepIndex.has(version);
  }

  /** Position of a version in the history; throws for a version the type never had. */
  stepIndex(version: string): number {
    const index = this.#stepIndex.get(version);
    if (index === undefined)
      throw new UnknownVersionError(this.name, version, this.knownVersions());
    return index;
  }

  /** The names of the fields an object of this type has at a version. */
  fieldsAt(version: string): ReadonlySet<string> {
    let fields = this.#fieldsAt.get(version);
    if (fields === undefined) {
      const index = this.stepIndex(version);
      const later = new Set(this.history.slice(index + 1).flatMap((step) => step.added ?? []));
      fields = new Set(this.fieldNames.filter((name) => !later.has(name)));
      this.#fieldsAt.set(version, fields);
    }
    return fields;
  }

  /** The positions in `fieldNames` of the fields of `fieldsAt(version)`, in that order. */
  positionsAt(version: string): readonly number[] {
    let positions = this.#positionsAt.get(version);
    if (positions === undefined) {
      positions = [...this.fieldsAt(version)].map((name) => this.positions.get(name) as number);
      this.#positionsAt.set(version, positions);
    }
    return positions;
  }

  /** The positions of the fields added after `version`: those a row of that version may still hold. */
  positionsAfter(version: string): readonly number[] {
    let positions = this.#laterPositions.get(version);
    if (positions === undefined) {
      const at = this.fieldsAt(version);
      positions = this.fieldNames.flatMap((name, i) => (at.has(name) ? [] : [i]));
      this.#laterPositions.set(version, positions);
    }
    return positions;
  }
}

/** Defines an object type (an alias of the constructor that reads well at module level). */
export function defineObjectType<F extends FieldMap>(
  definition: ObjectTypeDefinition<F>,
): ObjectType<F> {
  return new ObjectType(definition);
}
