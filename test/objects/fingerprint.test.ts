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
  Node: '1.15-84cad8bcb35c60ab3e4eac0135626cc0035cd9acc30fa1647093e7759c75ad4a',
  NodeList: '1.1-5236a7f7c7267b66438f4803151ff885e7e94fa5dc702dc9fd7a93aebb8ad94f',
  Port: '1.12-4c3c9c706c79f2383d1dc5d3d70d5a6f4e347519df761bcd2764ab23c235598c',
  Chassis: '1.4-ddd70429340aab11b7d046d9470cd89b159a5b054c938943c43bc6067c0efd48',
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
    assert.match(describeObjectType(Node), /"meta","FlexibleDict",null,true/);
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
