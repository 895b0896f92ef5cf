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

export const f = {
  integer: <const O extends FieldOptions<number>>(o?: O) => makeField(integerType, o),
  nonNegativeInteger: <const O extends FieldOptions<number>>(o?: O) =>
    makeField(nonNegativeIntegerType, o),
  float: <const O extends FieldOptions<number>>(o?: O) => makeField(floatType, o),
  string: <const O extends FieldOptions<string>>(o?: O) => makeField(stringType, o),
  boolean: <const O extends FieldOptions<boolean>>(o?: O) => makeField(booleanType, o),
  flexibleBoolean: <const O extends FieldOptions<boolean>>(o?: O) =>
    makeField(flexibleBooleanType, o),
  uuid: <const O extends FieldOptions<string>>(o?: O) => makeField(uuidType, o),
  macAddress: <const O extends FieldOptions<string>>(o?: O) => makeField(macAddressType, o),
  ipAddress: <const O extends FieldOptions<string>>(o?: O) => makeField(ipAddressType, o),
  dateTime: <const O extends FieldOptions<OffsetDateTime> & { aware?: boolean }>(o?: O) =>
    makeField(o?.aware === false ? naiveDateTime : awareDateTime, o),
  enum: <const V extends string, const O extends FieldOptions<V>>(values: readonly V[], o?: O) =>
    makeField(enumType(values), o),
  flexibleDict: <const O extends FieldOptions<JsonDict>>(o?: O) => makeField(flexibleDictType, o),
  dictOfStrings: <const O extends FieldOptions<Record<string, string>>>(o?: O) =>
    makeField(dictOfStrings, o),
  dictOfNullableStrings: <const O extends FieldOptions<Record<string, string | null>>>(o?: O) =>
    makeField(dictOfNullableStrings, o),
  listOfStrings: <const O extends FieldOptions<string[]>>(o?: O) => makeField(listOfStrings, o),
  listOfIntegers: <const O extends FieldOptions<number[]>>(o?: O) => makeField(listOfIntegers, o),
  listOfFlexibleDicts: <const O extends FieldOptions<JsonDict[]>>(o?: O) =>
    makeField(listOfFlexibleDicts, o),
  setOfIntegers: <const O extends FieldOptions<Set<number>>>(o?: O) => makeField(setOfIntegers, o),
  object: <F extends FieldMap, const O extends FieldOptions<VersionedObject<F>>>(
    target: () => ObjectType<F>,
    o?: O,
  ) => makeField(objectType(target), o),
  listOfObjects: <F extends FieldMap, const O extends FieldOptions<VersionedObject<F>[]>>(
    target: () => ObjectType<F>,
    o?: O,
  ) => makeField(listOfObjectsType(target), o),
};
