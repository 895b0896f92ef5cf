/**
 * The field builders: `f.integer()`, `f.string({ nullable: true })`,
 * `f.enum(['on', 'off'])`, `f.object(() => Chassis)`...
 */
import type { OffsetDateTime } from '../datetime.ts';
import type { FieldMap, ObjectType } from '../object-type.ts';
import type { VersionedObject } from '../versioned-object.ts';
import {
  dictOfType,
  flexibleDictType,
  type JsonDict,
  listOfType,
  setOfType,
} from './collections.ts';
import { type FieldOptions, makeField } from './field.ts';
import { listOfObjectsType, objectType } from './object-fields.ts';
import {
  booleanType,
  dateTimeType,
  enumType,
  flexibleBooleanType,
  floatType,
  integerType,
  ipAddressType,
  macAddressType,
  nonNegativeIntegerType,
  stringType,
  uuidType,
} from './scalars.ts';

const awareDateTime = dateTimeType(true);
const naiveDateTime = dateTimeType(false);
const listOfStrings = listOfType(stringType);
const listOfIntegers = listOfType(integerType);
const listOfFlexibleDicts = listOfType(flexibleDictType);
const dictOfStrings = dictOfType(stringType);
const dictOfNullableStrings = dictOfType(stringType, true);
const setOfIntegers = setOfType(integerType);

/**
 * The field builders: `f.integer()`, `f.string({ nullable: true })`, `f.enum(['on', 'off'])`,
 * `f.object(() => Chassis)`….
 */
export const f = {
  /** An integer. */
  integer: <const O extends FieldOptions<number>>(o?: O) => makeField(integerType, o),
  /** An integer of 0 or more. */
  nonNegativeInteger: <const O extends FieldOptions<number>>(o?: O) =>
    makeField(nonNegativeIntegerType, o),
  /** A floating-point number. */
  float: <const O extends FieldOptions<number>>(o?: O) => makeField(floatType, o),
  /** A string. */
  string: <const O extends FieldOptions<string>>(o?: O) => makeField(stringType, o),
  /** A boolean. */
  boolean: <const O extends FieldOptions<boolean>>(o?: O) => makeField(booleanType, o),
  /** A boolean read from oslo's flexible forms (`'yes'`, `'1'`, `'on'`…). */
  flexibleBoolean: <const O extends FieldOptions<boolean>>(o?: O) =>
    makeField(flexibleBooleanType, o),
  /** A UUID, as a string. */
  uuid: <const O extends FieldOptions<string>>(o?: O) => makeField(uuidType, o),
  /** A MAC address, as a string. */
  macAddress: <const O extends FieldOptions<string>>(o?: O) => makeField(macAddressType, o),
  /** An IP address, as a string. */
  ipAddress: <const O extends FieldOptions<string>>(o?: O) => makeField(ipAddressType, o),
  /** A date and time (an OffsetDateTime); `aware: false` for one without an offset. */
  dateTime: <const O extends FieldOptions<OffsetDateTime> & { aware?: boolean }>(o?: O) =>
    makeField(o?.aware === false ? naiveDateTime : awareDateTime, o),
  /** One of the given strings. */
  enum: <const V extends string, const O extends FieldOptions<V>>(values: readonly V[], o?: O) =>
    makeField(enumType(values), o),
  /** A JSON dictionary of any values. */
  flexibleDict: <const O extends FieldOptions<JsonDict>>(o?: O) => makeField(flexibleDictType, o),
  /** A dictionary of strings. */
  dictOfStrings: <const O extends FieldOptions<Record<string, string>>>(o?: O) =>
    makeField(dictOfStrings, o),
  /** A dictionary of strings or nulls. */
  dictOfNullableStrings: <const O extends FieldOptions<Record<string, string | null>>>(o?: O) =>
    makeField(dictOfNullableStrings, o),
  /** A list of strings. */
  listOfStrings: <const O extends FieldOptions<string[]>>(o?: O) => makeField(listOfStrings, o),
  /** A list of integers. */
  listOfIntegers: <const O extends FieldOptions<number[]>>(o?: O) => makeField(listOfIntegers, o),
  /** A list of JSON dictionaries. */
  listOfFlexibleDicts: <const O extends FieldOptions<JsonDict[]>>(o?: O) =>
    makeField(listOfFlexibleDicts, o),
  /** A set of integers. */
  setOfIntegers: <const O extends FieldOptions<Set<number>>>(o?: O) => makeField(setOfIntegers, o),
  /** An object of another versioned type (given lazily, so types may refer to each other). */
  object: <F extends FieldMap, const O extends FieldOptions<VersionedObject<F>>>(
    target: () => ObjectType<F>,
    o?: O,
  ) => makeField(objectType(target), o),
  /** A list of objects of another versioned type. */
  listOfObjects: <F extends FieldMap, const O extends FieldOptions<VersionedObject<F>[]>>(
    target: () => ObjectType<F>,
    o?: O,
  ) => makeField(listOfObjectsType(target), o),
};
