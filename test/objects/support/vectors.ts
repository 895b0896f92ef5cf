/**
 * Loads test/fixtures/ovo/vectors.json (produced by the real
 * oslo.versionedobjects 3.0.1; test/fixtures/ovo/README.md) and translates between its typed encoding and
 * Baton's values.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ObjectRegistry,
  type ObjectType,
  OffsetDateTime,
  VersionedObject,
} from '../../../src/objects/index.ts';
import { Chassis, Node, NodeList, OldNode, Port } from './ironic-family.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const VECTORS_PATH = join(here, '../../fixtures/ovo/vectors.json');

// biome-ignore lint/suspicious/noExplicitAny: the vectors are untyped JSON
export type Json = any;

/** Python's json writes NaN and Infinity bare; they become tagged values here. */
export const vectors: Json = JSON.parse(
  readFileSync(VECTORS_PATH, 'utf8').replace(
    /([:[,]\s*)(-?Infinity|NaN)(?=\s*[,\]}])/g,
    (_, before: string, token: string) => `${before}{"$nonfinite": "${token}"}`,
  ),
);

/** An input Python has and JavaScript does not (bytes, uuid.UUID, date...). */
export class Unrepresentable {
  readonly tag: string;
  constructor(tag: string) {
    this.tag = tag;
  }
}

export function datetimeFrom(iso: string, tzname: string | null): OffsetDateTime | Unrepresentable {
  if (tzname === 'UTC' || tzname === null) {
    const parsed = OffsetDateTime.parse(iso.replace(/[+-]00:00$/, ''));
    if (parsed === null) throw new Error(`bad vector datetime ${iso}`);
    return tzname === null ? parsed.toNaive() : parsed;
  }
  if (!/^[+-]\d\d:\d\d$/.test(tzname)) return new Unrepresentable(`datetime with zone ${tzname}`);
  const parsed = OffsetDateTime.parse(iso);
  if (parsed === null) throw new Error(`bad vector datetime ${iso}`);
  return parsed;
}

const TYPES = { Node, NodeList, Port, Chassis };

/** Typed encoding → a JavaScript value for input to Baton. */
export function decode(value: Json): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  if ('$float' in value) {
    const v = value.$float;
    return v === 'nan'
      ? Number.NaN
      : v === 'inf'
        ? Number.POSITIVE_INFINITY
        : v === '-inf'
          ? Number.NEGATIVE_INFINITY
          : v;
  }
  if ('$nonfinite' in value) return Number(value.$nonfinite);
  if ('$datetime' in value) return datetimeFrom(value.$datetime, value.tzname);
  if ('$tuple' in value) return value.$tuple.map(decode);
  if ('$set' in value) return new Set(value.$set.map(decode));
  if ('$bigint' in value) return BigInt(value.$bigint);
  if ('$dict' in value)
    return new Map(value.$dict.map(([k, v]: [Json, Json]) => [decode(k), decode(v)]));
  if ('$object' in value) return objectFromState(value.$object);
  for (const tag of ['$bytes', '$uuid', '$date', '$repr'])
    if (tag in value) return new Unrepresentable(tag);
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) result[key] = decode(value[key]);
  return result;
}

/** Builds an object from a vector `state`: set fields, version and changed marks. */
export function objectFromState(state: Json): VersionedObject {
  const type: ObjectType | undefined =
    state.class_version === '1.14' && state.name === 'Node'
      ? OldNode
      : TYPES[state.name as keyof typeof TYPES];
  if (type === undefined) throw new Error(`no type ${state.name}`);
  const obj = new VersionedObject(type, state.version);
  for (const [name, value] of Object.entries(state.fields)) obj.assign(name, decode(value));
  obj.resetChanges();
  obj.markChanged(state.changed);
  return obj;
}

/** A Baton value → the vectors' typed encoding, for comparison. */
export function encode(value: unknown): Json {
  if (value instanceof OffsetDateTime) {
    return { $datetime: value.isoformat(), tzname: value.naive ? null : value.zoneName };
  }
  if (value instanceof VersionedObject) return { $object: stateOf(value) };
  if (value instanceof Set) return { $set: [...value].sort() };
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) result[k] = encode(v);
    return result;
  }
  return value;
}

/** Normalises an expected typed value for comparison with `encode` output: floats become numbers. */
export function normalizeExpected(value: Json): Json {
  if (Array.isArray(value)) return value.map(normalizeExpected);
  if (value === null || typeof value !== 'object') return value;
  if ('$float' in value) return value.$float;
  if ('$tuple' in value) return value.$tuple.map(normalizeExpected);
  if ('$set' in value) return { $set: [...value.$set].sort() };
  if ('$object' in value) return { $object: normalizeState(value.$object) };
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) result[key] = normalizeExpected(value[key]);
  return result;
}

export function normalizeState(state: Json): Json {
  return {
    name: state.name,
    class_version: state.class_version,
    version: state.version,
    fields: normalizeExpected(state.fields),
    unset: [...state.unset].sort(),
    changed: [...state.changed].sort(),
  };
}

export function stateOf(obj: VersionedObject): Json {
  const fields: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const name of obj.type.fieldNames) {
    if (obj.isSet(name)) fields[name] = encode(obj.get(name));
    else unset.push(name);
  }
  return {
    name: obj.type.name,
    class_version: obj.type.version,
    version: obj.version,
    fields,
    unset: unset.sort(),
    changed: [...obj.changedFields()].sort(),
  };
}

/** A primitive with its changes lists sorted (oslo emits them in set order). */
export function sortChanges(primitive: Json, serial = 'ironic_object'): Json {
  if (Array.isArray(primitive)) return primitive.map((p) => sortChanges(p, serial));
  if (primitive === null || typeof primitive !== 'object') return primitive;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(primitive)) {
    result[key] =
      key === `${serial}.changes` ? [...(value as string[])].sort() : sortChanges(value, serial);
  }
  return result;
}

export function findCase(section: Json[], id: string): Json {
  const found = section.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no vector ${id}`);
  return found;
}

export type { ObjectRegistry };
