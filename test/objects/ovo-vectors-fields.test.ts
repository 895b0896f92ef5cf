/**
 * oslo.versionedobjects vectors, `fields` section: 32 field configurations,
 * each value coerced, sent (`to_primitive`) and read back. Baton matches oslo
 * except in the cases listed in DEVIATIONS, where oslo's behaviour silently
 * changes a value's meaning or cannot exist in JavaScript; each says why.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  coerceFieldValue,
  fieldFromPrimitive,
  fieldToPrimitive,
} from '../../src/objects/fields/field.ts';
import { type FieldSpec, f } from '../../src/objects/index.ts';
import { Chassis, Node, newRegistry } from './support/ironic-family.ts';
import {
  decode,
  encode,
  type Json,
  normalizeExpected,
  sortChanges,
  Unrepresentable,
  vectors,
} from './support/vectors.ts';

const SPECS: Record<string, FieldSpec> = {
  'IntegerField()': f.integer(),
  'IntegerField(nullable=True)': f.integer({ nullable: true }),
  'IntegerField(default=7)': f.integer({ default: 7 }),
  'NonNegativeIntegerField()': f.nonNegativeInteger(),
  'FloatField()': f.float(),
  'StringField()': f.string(),
  'StringField(nullable=True)': f.string({ nullable: true }),
  "StringField(default='dflt')": f.string({ default: 'dflt' }),
  'UUIDField()': f.uuid(),
  'BooleanField()': f.boolean(),
  'BooleanField(nullable=True, default=False)': f.boolean({ nullable: true, default: false }),
  'BooleanField(default=True)': f.boolean({ default: true }),
  'FlexibleBooleanField()': f.flexibleBoolean(),
  'DateTimeField()': f.dateTime(),
  'DateTimeField(nullable=True)': f.dateTime({ nullable: true }),
  'DateTimeField(tzinfo_aware=False)': f.dateTime({ aware: false }),
  'FlexibleDictField(nullable=True) [ironic]': f.flexibleDict({ nullable: true }),
  'FlexibleDictField() [ironic]': f.flexibleDict(),
  'FlexibleDictField(default={}) [ironic]': f.flexibleDict({ default: {} }),
  'DictOfStringsField()': f.dictOfStrings(),
  'DictOfNullableStringsField()': f.dictOfNullableStrings(),
  'ListOfStringsField()': f.listOfStrings(),
  'ListOfStringsField(default=[])': f.listOfStrings({ default: [] }),
  'ListOfIntegersField()': f.listOfIntegers(),
  'SetOfIntegersField()': f.setOfIntegers(),
  "EnumField(['on', 'off'])": f.enum(['on', 'off']),
  "EnumField(['1', '2'])": f.enum(['1', '2']),
  'MACAddressField()': f.macAddress(),
  "ObjectField('Chassis')": f.object(() => Chassis),
  "ObjectField('Chassis', nullable=True)": f.object(() => Chassis, { nullable: true }),
  "ListOfObjectsField('Node')": f.listOfObjects(() => Node),
  'IPAddressField()': f.ipAddress(),
};

type Outcome = { error: true } | { value: Json };

/** `<field config> <input as JSON>` → what Baton does instead of oslo, and why. */
const DEVIATIONS: Record<string, Outcome & { reason: string }> = {};

function deviate(field: string, inputs: Json[], outcome: Outcome, reason: string): void {
  for (const input of inputs)
    DEVIATIONS[`${field} ${JSON.stringify(input)}`] = { ...outcome, reason };
}

const NOT_IN_JS =
  'JavaScript has no such value (Python bytes, uuid.UUID, date, non-string dict keys, tz objects)';
const REFUSED = { error: true } as const;

deviate(
  'IntegerField()',
  ['١٢'],
  REFUSED,
  "only ASCII digits: other scripts' digits are a spoofing risk in identifiers",
);
deviate(
  'IntegerField()',
  [{ $float: 4.9 }, { $float: -4.9 }],
  REFUSED,
  'int() truncates 4.9 to 4: a silent loss',
);
deviate(
  'IntegerField()',
  [true, false],
  REFUSED,
  'a boolean is not an integer (Python bool is an int subclass)',
);
deviate(
  'IntegerField()',
  [{ $bigint: '100000000000000000000' }],
  REFUSED,
  'beyond 2^53 a JavaScript number is inexact',
);
deviate(
  'FloatField()',
  ['nan'],
  REFUSED,
  'NaN has no JSON form (oslo writes a bare NaN, which JSON parsers reject)',
);
deviate('FloatField()', [true], REFUSED, 'a boolean is not a number');
deviate(
  'StringField()',
  [{ $float: 1.0 }],
  { value: '1' },
  'JavaScript numbers do not distinguish 1.0 from 1',
);
deviate(
  'StringField()',
  [{ $float: 1e20 }],
  { value: '100000000000000000000' },
  "JavaScript's number formatting",
);
deviate('StringField()', [{ $float: 1e-7 }], { value: '1e-7' }, "JavaScript's number formatting");
deviate(
  'StringField()',
  [true],
  REFUSED,
  'str(True) gives "True"; a boolean is refused rather than stringified',
);
deviate(
  'StringField()',
  [{ $bytes: '6279746573' }, { $uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' }],
  REFUSED,
  NOT_IN_JS,
);
deviate(
  'UUIDField()',
  ['not-a-uuid', 123],
  REFUSED,
  'oslo only warns (FutureWarning) on a malformed UUID; Baton refuses it',
);
deviate('UUIDField()', [{ $uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123' }], REFUSED, NOT_IN_JS);
deviate(
  'BooleanField()',
  [2, -1, [], [0], {}, ''],
  REFUSED,
  'Python truthiness: only booleans, 0/1 and "true"/"false" are unambiguous',
);
deviate(
  'BooleanField()',
  ['false', 'False'],
  { value: false },
  'bool("false") is True in Python; Baton reads it as false',
);
deviate(
  'BooleanField()',
  ['0'],
  { value: false },
  'bool("0") is True in Python; Baton reads it as false',
);
deviate(
  'DateTimeField()',
  [
    { $datetime: '2024-01-02T03:04:05+02:00', tzname: 'UTC+02:00' },
    { $datetime: '2024-07-01T12:00:00+02:00', tzname: 'CEST' },
  ],
  REFUSED,
  `${NOT_IN_JS}: Baton keeps an offset, never a named zone (oslo writes such values unparseably or raises)`,
);
deviate(
  'DateTimeField()',
  [{ $datetime: '0999-01-02T03:04:05+00:00', tzname: 'UTC' }],
  { value: { $datetime: '0999-01-02T03:04:05+00:00', tzname: 'UTC' } },
  'years below 1000 are zero-padded on the wire so they parse back (oslo writes 999-01-02...)',
);
deviate('DateTimeField()', [{ $date: '2024-01-02' }], REFUSED, NOT_IN_JS);
deviate(
  'FlexibleDictField(nullable=True) [ironic]',
  ["{'a': 1, 'b': None}", "[('a', 1)]"],
  REFUSED,
  'Python literals are not evaluated; JSON text is accepted instead',
);
deviate(
  'FlexibleDictField(nullable=True) [ironic]',
  ['{"a": true}'],
  { value: { a: true } },
  'JSON text is accepted (ast.literal_eval rejects JSON true)',
);
deviate(
  'FlexibleDictField(nullable=True) [ironic]',
  [{ $dict: [[1, 'int key']] }],
  REFUSED,
  'JSON objects have string keys only',
);
deviate(
  'FlexibleDictField(default={}) [ironic]',
  [null],
  { value: {} },
  "Ironic's _null turns null into None on a non-nullable field with a default; Baton uses the default",
);
deviate('DictOfStringsField()', [{ $dict: [[1, 'x']] }], REFUSED, NOT_IN_JS);
deviate(
  'ListOfStringsField()',
  [['a', 1, { $float: 2.5 }, true]],
  REFUSED,
  'a boolean element is refused rather than stringified to "True"',
);
deviate(
  'ListOfIntegersField()',
  [['1', 2, { $float: 3.7 }]],
  REFUSED,
  'int() truncates 3.7 to 3: a silent loss',
);
deviate(
  'SetOfIntegersField()',
  [{ $set: ['3', 1, 2] }],
  { value: { $set: [1, 2, 3] } },
  'same result; listed because the set prints sorted',
);

/** Field-level deserialization deviations, by `<field config> <wire>`. */
const WIRE_DEVIATIONS: Record<string, Outcome & { reason: string }> = {
  'StringField() true': { error: true, reason: 'a boolean is refused rather than stringified' },
  'UUIDField() "not-a-uuid"': { error: true, reason: 'malformed UUIDs are refused' },
  'BooleanField() "false"': {
    value: false,
    reason: 'bool("false") is True in Python; Baton reads false',
  },
  'DateTimeField() "2024-01-02T03:04:05UTC+02:00"': {
    error: true,
    reason: 'same as oslo: unparseable',
  },
  'FlexibleDictField(nullable=True) [ironic] "{\'s\': 1}"': {
    error: true,
    reason: 'Python literals are not evaluated',
  },
  'FlexibleDictField(default={}) [ironic] null': {
    value: {},
    reason: "the default, not Ironic's None",
  },
  'FloatField() 1': { value: 1, reason: 'same value: 1.0 and 1 are one JavaScript number' },
  'StringField() 1': {
    value: '1',
    reason: 'the wire 1.0 and 1 are one JavaScript number, so both read as "1"',
  },
  'IntegerField() 4.7': { error: true, reason: 'int() truncates 4.7 to 4: a silent loss' },
};

function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch {
    return REFUSED;
  }
}

function expectedOf(row: Json, key: string): Outcome {
  if (row.error !== undefined) return REFUSED;
  const value = row[key];
  if (value && typeof value === 'object' && '$repr' in value) {
    return { value: /'(.*)'/.exec(value.$repr)?.[1] };
  }
  return { value: normalizeExpected(value) };
}

function compare(actual: Outcome, expected: Outcome, label: string): void {
  if ('error' in expected) {
    assert.ok(
      'error' in actual,
      `${label}: expected an error, got ${JSON.stringify(encode((actual as { value: unknown }).value))}`,
    );
    return;
  }
  assert.ok(
    'value' in actual,
    `${label}: expected ${JSON.stringify(expected.value)}, got an error`,
  );
  assert.deepEqual(encode(actual.value), normalizeExpected(expected.value), label);
}

describe('ovo vectors: fields', () => {
  const registry = newRegistry();
  for (const config of vectors.fields as Json[]) {
    const spec = SPECS[config.field];
    describe(config.field, () => {
      test('spec matches oslo (nullable, has default)', () => {
        assert.ok(spec, `no spec for ${config.field}`);
        assert.equal(spec.nullable, config.nullable);
        assert.equal(spec.hasDefault, config.has_default);
      });
      for (const row of config.coerce as Json[]) {
        const key = `${config.field} ${JSON.stringify(row.input)}`;
        test(`coerce ${JSON.stringify(row.input).slice(0, 60)}`, () => {
          assert.ok(spec);
          const input = decode(row.input);
          const deviation = DEVIATIONS[key];
          if (input instanceof Unrepresentable && deviation === undefined)
            assert.fail(`${key}: unrepresentable without a deviation`);
          const actual = outcome(() => coerceFieldValue(spec, input));
          compare(actual, deviation ?? expectedOf(row, 'coerced'), key);
          if (deviation === undefined && 'value' in actual && row.error === undefined) {
            const primitive = JSON.parse(JSON.stringify(fieldToPrimitive(spec, actual.value)));
            assert.deepEqual(
              sortChanges(primitive),
              sortChanges(row.to_primitive_json),
              `${key}: to_primitive`,
            );
            const back = outcome(() => fieldFromPrimitive(spec, primitive, registry));
            compare(back, expectedOf(row.from_primitive, 'value'), `${key}: round trip`);
          }
        });
      }
      for (const row of config.deserialize as Json[]) {
        const key = `${config.field} ${JSON.stringify(row.wire)}`;
        test(`read ${JSON.stringify(row.wire).slice(0, 60)}`, () => {
          assert.ok(spec);
          const actual = outcome(() =>
            fieldFromPrimitive(spec, structuredClone(row.wire), registry),
          );
          const expected: Outcome =
            WIRE_DEVIATIONS[key] ??
            (row.deserialized.error !== undefined
              ? REFUSED
              : expectedOf(row.deserialized, 'value'));
          compare(actual, expected, key);
        });
      }
    });
  }

  test('every deviation names a case that exists in the vectors', () => {
    const keys = new Set<string>();
    for (const config of vectors.fields as Json[]) {
      for (const row of config.coerce) keys.add(`${config.field} ${JSON.stringify(row.input)}`);
      for (const row of config.deserialize) keys.add(`${config.field} ${JSON.stringify(row.wire)}`);
    }
    for (const key of [...Object.keys(DEVIATIONS), ...Object.keys(WIRE_DEVIATIONS)])
      assert.ok(keys.has(key), key);
  });
});
