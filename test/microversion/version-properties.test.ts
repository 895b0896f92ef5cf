import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  compareVersions,
  findServiceEntry,
  formatVersion,
  makeVersion,
  tryParseVersion,
  type Version,
} from '../../src/microversion/index.ts';

const part = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 999_999_999_999_999 }),
);
const version = fc.tuple(part, part).map(([major, minor]) => makeVersion(major, minor));

function tupleOrder(a: Version, b: Version): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  return 0;
}

// The grammar, stated the obvious way, as the oracle for the hand-written scanner.
const GRAMMAR = /^[0-9]{1,15}\.[0-9]{1,15}$/;

describe('version properties', () => {
  test('compare agrees with tuple order on (major, minor)', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        assert.equal(Math.sign(compareVersions(a, b)), tupleOrder(a, b));
      }),
    );
  });

  test('compare is a total order: antisymmetric, transitive, zero only for equal values', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        assert.equal(Math.sign(compareVersions(a, b)), -Math.sign(compareVersions(b, a)));
        if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) {
          assert.ok(compareVersions(a, c) <= 0);
        }
        assert.equal(compareVersions(a, b) === 0, formatVersion(a) === formatVersion(b));
      }),
    );
  });

  test('sorting with compare equals sorting by tuple', () => {
    fc.assert(
      fc.property(fc.array(version), (list) => {
        const byCompare = [...list].sort(compareVersions).map(formatVersion);
        const byTuple = [...list].sort(tupleOrder).map(formatVersion);
        assert.deepEqual(byCompare, byTuple);
      }),
    );
  });

  test('parse(format(v)) is v, and format(parse(s)) is s for canonical s', () => {
    fc.assert(
      fc.property(version, (v) => {
        const text = formatVersion(v);
        assert.deepEqual(tryParseVersion(text), v);
        assert.equal(formatVersion(tryParseVersion(text) as Version), text);
      }),
    );
  });

  test('leading zeros parse to the same value', () => {
    fc.assert(
      fc.property(version, fc.nat(3), fc.nat(3), (v, zerosA, zerosB) => {
        const text = `${'0'.repeat(zerosA)}${v.major}.${'0'.repeat(zerosB)}${v.minor}`;
        fc.pre(text.length <= 31);
        const parsed = tryParseVersion(text);
        if (GRAMMAR.test(text)) assert.deepEqual(parsed, v);
        else assert.equal(parsed, undefined);
      }),
    );
  });

  test('a string parses exactly when it matches digits.digits', () => {
    const unit = fc.constantFrom('0', '1', '7', '9', '.', ' ', '-', '+', 'a', '_', ',', 'e');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        assert.equal(tryParseVersion(text) !== undefined, GRAMMAR.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  test('the standard header yields the last entry for the service, whatever the case', () => {
    const service = fc.constantFrom('placement', 'compute', 'baremetal', 'PLACEMENT', 'Placement');
    const entry = fc.tuple(service, version.map(formatVersion));
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 6 }),
        fc.constantFrom(',', ', ', ' , '),
        (entries, sep) => {
          const header = entries.map(([name, text]) => `${name} ${text}`).join(sep);
          const ours = entries.filter(([name]) => name.toLowerCase() === 'placement');
          assert.equal(findServiceEntry(header, 'placement'), ours.at(-1)?.[1]);
        },
      ),
    );
  });
});
