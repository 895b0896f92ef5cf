import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  assertFingerprints,
  compareFingerprints,
  defineObjectType,
  describeObjectType,
  f,
  fingerprint,
} from '../../src/objects/index.ts';
import { Chassis, IRONIC_NAMESPACE, Node, NodeList, Port } from './support/ironic-family.ts';

/** The table a project keeps in its tests; a type changed without a version bump fails it. */
const EXPECTED = {
  Node: '1.15-c6a891db00ca2c714dbb6d5cc828e3cf871272b0fc3aa43129fadbafcb90f4dd',
  NodeList: '1.1-5e7ca2c03d58f8ef3cb02572b73e171810b84a17d94652419f9bb0f8b1689050',
  Port: '1.12-bf5ebb42c3224960a54495f735fb1407ddaf5cf381a30fee671ae15c721af7a2',
  Chassis: '1.4-f317b197e691ca610d54a057a88218351f6d3a1fd2ad907b730746545e54e13c',
};

const widget = (
  fields: Parameters<typeof defineObjectType>[0]['fields'],
  version = '1.0',
  params = ['context'],
) =>
  defineObjectType({
    name: 'Widget',
    namespace: IRONIC_NAMESPACE,
    fields,
    history:
      version === '1.0'
        ? [{ version: '1.0', note: 'Initial' }]
        : [
            { version: '1.0', note: 'Initial' },
            { version, note: 'Next' },
          ],
    remotable: { save: { params } },
  });

describe('fingerprints', () => {
  test('the family matches its table', () => {
    assertFingerprints([Node, NodeList, Port, Chassis], EXPECTED);
  });

  test('a fingerprint is the version and a SHA-256 of the canonical description', () => {
    assert.match(fingerprint(Node), /^1\.15-[0-9a-f]{64}$/);
    assert.equal(fingerprint(Node), fingerprint(Node));
    const description = describeObjectType(Node);
    assert.match(description, /^baton-object\/1\tNode\n/);
    assert.match(description, /\nF\tmeta\tFlexibleDict\t~\t1\t~\n/);
    assert.match(description, /\nM\tget\tstatic\tcontext positional ~\tnode_id positional ~\n/);
    assert.match(describeObjectType(NodeList), /\nC\t1\.0=1\.14\t1\.1=1\.15\n$/);
  });

  test('defaults holding the separators are written as JSON and keep types apart', () => {
    const withDefault = (value: unknown) => widget({ x: f.string({ default: value as string }) });
    const texts = ['a b', 'a\tb', 'a\nb', '~', 'a\\tb', '"a"'];
    const prints = new Set(texts.map((text) => fingerprint(withDefault(text))));
    assert.equal(prints.size, texts.length);
    for (const text of texts) assert.doesNotMatch(describeObjectType(withDefault(text)), /\ta\tb/);
  });

  test('names that are not identifiers, and kinds that are not words, are refused', () => {
    assert.throws(
      () => widget({ 'bad name': f.integer() }),
      /field name "bad name" is not an identifier/,
    );
    assert.throws(
      () => widget({ x: f.integer() }, '1.0', ['context', 'a\tb']),
      /parameter of save "a\\tb"/,
    );
    const oddKind = { ...f.integer(), type: { ...f.integer().type, kind: 'Int eger' } };
    assert.throws(() => widget({ x: oddKind }), /field kind "Int eger" is not a word/);
  });

  test('field order in the definition does not matter', () => {
    const a = widget({ x: f.integer(), y: f.string() });
    const b = widget({ y: f.string(), x: f.integer() });
    assert.equal(fingerprint(a), fingerprint(b));
  });

  for (const [what, changed] of [
    ['a new field', widget({ x: f.integer(), z: f.boolean() })],
    ['a type change', widget({ x: f.string() })],
    ['a nullability change', widget({ x: f.integer({ nullable: true }) })],
    ['a new default', widget({ x: f.integer({ default: 3 }) })],
    ['a remote method signature change', widget({ x: f.integer() }, '1.0', ['context', 'force'])],
  ] as const) {
    test(`${what} without a version bump fails, naming the type`, () => {
      const table = { Widget: fingerprint(widget({ x: f.integer() })) };
      assert.deepEqual(compareFingerprints([changed], table).changedWithoutVersionBump, ['Widget']);
      assert.throws(
        () => assertFingerprints([changed], table),
        /changed without a version bump.*: Widget/,
      );
    });
  }

  test('the same change with a version bump asks for the table to be updated instead', () => {
    const table = { Widget: fingerprint(widget({ x: f.integer() })) };
    const bumped = widget({ x: f.integer(), z: f.boolean() }, '1.1');
    const report = compareFingerprints([bumped], table);
    assert.deepEqual(report.changedWithoutVersionBump, []);
    assert.deepEqual(report.versionBumped, ['Widget']);
    assert.match(report.actual.Widget ?? '', /^1\.1-/);
  });

  test('types missing from the table, and table entries without a type, are reported', () => {
    const report = compareFingerprints([Node], { Chassis: EXPECTED.Chassis });
    assert.deepEqual(report.unexpected, ['Node']);
    assert.deepEqual(report.missing, ['Chassis']);
  });
});
