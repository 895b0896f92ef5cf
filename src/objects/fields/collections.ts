/** Container field types: flexible dicts, typed dicts, lists and sets. */
import { CoercionError, describeValue } from '../errors.ts';
import { isPlainObject, setOwn } from '../plain-object.ts';
import type { FieldType } from './field.ts';

/** A JSON dictionary. */
export type JsonDict = Record<string, unknown>;

function fromPairs(pairs: readonly unknown[]): JsonDict | null {
  const result: JsonDict = {};
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') return null;
    setOwn(result, pair[0], pair[1]);
  }
  return result;
}

/**
 * Ironic's FlexibleDict: a free-form JSON dict. Assigning makes a shallow
 * copy (so later edits of the caller's dict are not seen); a list of
 * `[key, value]` pairs becomes a dict; a string must hold a JSON object
 * (Ironic evaluates Python literals there, which Baton does not).
 * A nullable FlexibleDict holds `{}` for null, as in Ironic.
 */
export const flexibleDictType: FieldType<JsonDict> = {
  kind: 'FlexibleDict',
  coerce(value) {
    if (isPlainObject(value)) return { ...value };
    if (Array.isArray(value)) {
      const dict = fromPairs(value);
      if (dict !== null) return dict;
    } else if (value instanceof Map) {
      const dict = fromPairs([...value.entries()]);
      if (dict !== null) return dict;
    } else if (typeof value === 'string') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw new CoercionError(`${describeValue(value)} is not a JSON object`);
      }
      if (isPlainObject(parsed)) return parsed;
    }
    throw new CoercionError(`${describeValue(value)} is not a dict`);
  },
  toPrimitive: (value) => value,
  clone: (value) => structuredClone(value),
  nullValue: () => ({}),
};

function elementError(error: unknown, path: string): never {
  if (error instanceof CoercionError) throw new CoercionError(error.message, path + error.path);
  throw error;
}

/** A dict with string keys whose values are of one type. */
export function dictOfType<T>(
  element: FieldType<T>,
  nullableValues = false,
): FieldType<Record<string, T | null>> {
  return {
    kind: 'Dict',
    detail: `${element.kind}${nullableValues ? '?' : ''}`,
    coerce(value) {
      if (value instanceof Map && [...value.keys()].some((key) => typeof key !== 'string')) {
        throw new CoercionError('dict keys must be strings');
      }
      const source = value instanceof Map ? Object.fromEntries(value) : value;
      if (!isPlainObject(source)) throw new CoercionError(`${describeValue(value)} is not a dict`);
      const result: Record<string, T | null> = {};
      for (const key of Object.keys(source)) {
        const item = source[key];
        if (item === null && nullableValues) {
          setOwn(result, key, null);
          continue;
        }
        try {
          if (item === null || item === undefined) throw new CoercionError('cannot be null');
          setOwn(result, key, element.coerce(item));
        } catch (error) {
          elementError(error, `[${key}]`);
        }
      }
      return result;
    },
    toPrimitive(value) {
      const result: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const item = value[key];
        setOwn(result, key, item === null || item === undefined ? null : element.toPrimitive(item));
      }
      return result;
    },
    clone: (value) => ({ ...value }),
  };
}

/** A list whose elements are of one type (never null). */
export function listOfType<T>(element: FieldType<T>): FieldType<T[]> {
  return {
    kind: 'List',
    detail: element.kind,
    coerce(value) {
      if (!Array.isArray(value)) throw new CoercionError(`${describeValue(value)} is not a list`);
      const result = new Array<T>(value.length);
      for (let i = 0; i < value.length; i++) {
        try {
          const item = value[i];
          if (item === null || item === undefined) throw new CoercionError('cannot be null');
          result[i] = element.coerce(item);
        } catch (error) {
          elementError(error, `[${i}]`);
        }
      }
      return result;
    },
    toPrimitive: (value) => value.map((item) => element.toPrimitive(item)),
    clone: (value) =>
      element.clone ? value.map((item) => (element.clone as (v: T) => T)(item)) : [...value],
  };
}

/** A set (a JavaScript Set); sent as a JSON array, sorted for a stable wire form. */
export function setOfType<T extends string | number>(element: FieldType<T>): FieldType<Set<T>> {
  return {
    kind: 'Set',
    detail: element.kind,
    coerce(value) {
      if (!(value instanceof Set)) throw new CoercionError(`${describeValue(value)} is not a set`);
      const result = new Set<T>();
      let i = 0;
      for (const item of value) {
        try {
          result.add(element.coerce(item));
        } catch (error) {
          elementError(error, `[${i}]`);
        }
        i++;
      }
      return result;
    },
    toPrimitive: (value) =>
      [...value]
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .map((item) => element.toPrimitive(item)),
    fromPrimitive(value) {
      if (!Array.isArray(value)) throw new CoercionError(`${describeValue(value)} is not a list`);
      return new Set(value);
    },
    clone: (value) => new Set(value),
  };
}
