/**
 * Scalar field types. Coercion follows oslo.versionedobjects where its rules
 * are sound and is stricter where oslo silently changes meaning (see
 * test/objects/ovo-vectors-fields.test.ts for every difference and why).
 */
import { OffsetDateTime } from '../datetime.ts';
import { CoercionError, describeValue } from '../errors.ts';
import type { FieldType } from './field.ts';
import { ipAddressFamily } from './ip-address.ts';

const INTEGER_TEXT = /^[+-]?\d+(?:_\d+)*$/;
const FLOAT_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const UUID_TEXT =
  /^(?:urn:uuid:)?\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;
const MAC_TEXT = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$/i;

function fail(value: unknown, expected: string): never {
  throw new CoercionError(`${describeValue(value)} is not ${expected}`);
}

/** The value of a short string of ASCII digits, or undefined (the common case, without a regex). */
function plainDigits(text: string): number | undefined {
  const length = text.length;
  if (length === 0 || length > 15) return undefined;
  let result = 0;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    result = result * 10 + digit;
  }
  return result;
}

export const integerType: FieldType<number> = {
  kind: 'Integer',
  coerce(value) {
    if (typeof value === 'number') {
      // Unlike Python's int(), no silent truncation of 4.9 and no inexact huge values.
      if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
      return fail(value, 'an exactly representable integer');
    }
    if (typeof value === 'string') {
      const plain = plainDigits(value);
      if (plain !== undefined) return plain;
      const text = value.trim();
      if (INTEGER_TEXT.test(text)) return integerType.coerce(Number(text.replaceAll('_', '')));
      return fail(value, 'an integer');
    }
    if (typeof value === 'bigint') return integerType.coerce(Number(value));
    return fail(value, 'an integer');
  },
  toPrimitive: (value) => value,
};

export const nonNegativeIntegerType: FieldType<number> = {
  ...integerType,
  kind: 'NonNegativeInteger',
  coerce(value) {
    const number = integerType.coerce(value);
    if (number < 0) return fail(value, 'a non-negative integer');
    return number;
  },
};

export const floatType: FieldType<number> = {
  kind: 'Float',
  coerce(value) {
    // NaN and infinities have no JSON form, so they are refused.
    if (typeof value === 'number')
      return Number.isFinite(value) ? value : fail(value, 'a finite number');
    if (typeof value === 'string' && FLOAT_TEXT.test(value.trim())) return Number(value.trim());
    return fail(value, 'a number');
  },
  toPrimitive: (value) => value,
};

export const stringType: FieldType<string> = {
  kind: 'String',
  coerce(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    // Python's str(datetime): ISO form with a space.
    if (value instanceof OffsetDateTime) return value.isoformat().replace('T', ' ');
    return fail(value, 'a string');
  },
  toPrimitive: (value) => value,
};

export const booleanType: FieldType<boolean> = {
  kind: 'Boolean',
  coerce(value) {
    // Python truthiness would read "false" as true; only unambiguous values pass.
    if (typeof value === 'boolean') return value;
    if (value === 0 || value === 1) return value === 1;
    if (typeof value === 'string') {
      const text = value.trim().toLowerCase();
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
    }
    return fail(value, 'a boolean');
  },
  toPrimitive: (value) => value,
};

const TRUE_WORDS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

/** oslo's FlexibleBoolean: a string is true when it is a "yes" word, else false. */
export const flexibleBooleanType: FieldType<boolean> = {
  kind: 'FlexibleBoolean',
  coerce(value) {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number') return value === 1;
    if (typeof value === 'string') return TRUE_WORDS.has(value.trim().toLowerCase());
    return fail(value, 'a boolean');
  },
  toPrimitive: (value) => value,
};

/** The 8-4-4-4-12 form almost every UUID arrives in; a simpler regex runs faster. */
const CANONICAL_UUID =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const isCanonicalUuid = (text: string): boolean => text.length === 36 && CANONICAL_UUID.test(text);

export const uuidType: FieldType<string> = {
  kind: 'UUID',
  coerce(value) {
    // oslo only warns on a malformed UUID; Baton refuses it. The text is kept as given.
    if (typeof value === 'string' && (isCanonicalUuid(value) || UUID_TEXT.test(value)))
      return value;
    return fail(value, 'a UUID');
  },
  toPrimitive: (value) => value,
};

export const macAddressType: FieldType<string> = {
  kind: 'MACAddress',
  coerce(value) {
    if (typeof value === 'string' && MAC_TEXT.test(value)) {
      return value.toLowerCase().replaceAll('-', ':');
    }
    return fail(value, 'a MAC address (six hex pairs separated by : or -)');
  },
  toPrimitive: (value) => value,
};

export const ipAddressType: FieldType<string> = {
  kind: 'IPAddress',
  coerce(value) {
    if (typeof value === 'string' && ipAddressFamily(value) !== 0) return value;
    return fail(value, 'an IP address');
  },
  toPrimitive: (value) => value,
};

export function enumType<const V extends string>(validValues: readonly V[]): FieldType<V> {
  const valid = new Set<string>(validValues);
  if (valid.size === 0) throw new RangeError('an enum needs at least one valid value');
  return {
    kind: 'Enum',
    detail: JSON.stringify([...validValues]),
    coerce(value) {
      if (typeof value === 'string' && valid.has(value)) return value as V;
      return fail(value, `one of ${validValues.join(', ')}`);
    },
    toPrimitive: (value) => value,
  };
}

function coerceDateTime(value: unknown): OffsetDateTime {
  if (value instanceof OffsetDateTime) return value;
  if (value instanceof Date && !Number.isNaN(value.getTime()))
    return OffsetDateTime.fromDate(value);
  if (typeof value === 'string') {
    const parsed = OffsetDateTime.parse(value);
    if (parsed !== null) return parsed;
  }
  return fail(value, 'an ISO 8601 date and time');
}

/** Timezone-aware by default; `aware: false` keeps the wall-clock time and drops the zone. */
export function dateTimeType(aware = true): FieldType<OffsetDateTime> {
  return {
    kind: 'DateTime',
    detail: aware ? undefined : 'naive',
    coerce: aware
      ? (value) => coerceDateTime(value).toAware()
      : (value) => coerceDateTime(value).toNaive(),
    toPrimitive: (value) => value.toPrimitive(),
    fromPrimitive(value) {
      if (typeof value !== 'string') return fail(value, 'a date string');
      return value;
    },
  };
}
