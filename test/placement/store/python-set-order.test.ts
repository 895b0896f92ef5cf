/**
 * CPython's iteration order of sets of ids, as the real service's trait writer meets it:
 * fixed cases written out from CPython 3.11, and a cross-check of thousands of random ones
 * against the machine's /usr/bin/python3 (the interpreter the real service runs under).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  pythonSetDifferenceOrder,
  pythonSetOrder,
} from '../../../src/placement/store/python-set-order.ts';

const PYTHON = '/usr/bin/python3';

describe('CPython set order', () => {
  it('iterates a small set by slot (id mod 8), not by value', () => {
    assert.deepEqual(pythonSetOrder([346, 351, 352]), [352, 346, 351]);
    assert.deepEqual(pythonSetOrder([6, 7, 8]), [8, 6, 7]);
  });

  it('places colliding ids by the order the set was built in', () => {
    assert.deepEqual(pythonSetOrder([1, 33, 65, 97]), [65, 1, 97, 33]);
    assert.deepEqual(pythonSetOrder([97, 65, 33, 1]), [65, 97, 1, 33]);
    assert.deepEqual(pythonSetOrder([1, 9, 17]), [1, 9, 17]);
  });

  it('grows the table when three fifths full, and sizes a copy afresh', () => {
    // Five ids grow the table to 32 slots (14 and 15 no longer wrap); copying them for a
    // difference makes a table of 16.
    assert.deepEqual(pythonSetOrder([14, 15, 16, 17, 18]), [14, 15, 16, 17, 18]);
    assert.deepEqual(pythonSetDifferenceOrder([14, 15, 16, 17, 18], []), [16, 17, 18, 14, 15]);
  });

  it('subtracts by copying (few to remove) or by rebuilding (many)', () => {
    assert.deepEqual(
      pythonSetDifferenceOrder([100, 108, 116, 124, 132, 140], [108]),
      [132, 100, 140, 116, 124],
    );
    assert.deepEqual(
      pythonSetDifferenceOrder(
        [40, 43, 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79],
        [40, 49, 58, 67, 76],
      ),
      [64, 70, 73, 43, 46, 79, 52, 55, 61],
    );
    assert.deepEqual(pythonSetDifferenceOrder([5, 13], [13, 5]), []);
  });

  const available = existsSync(PYTHON);
  if (!available && process.env.CI === 'true') {
    it('has the interpreter to check against', () => assert.fail(`${PYTHON} is missing`));
  }
  it('matches the machine CPython on random sets', {
    skip: available ? false : `${PYTHON} is missing`,
  }, () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const cases: [number[], number[]][] = [];
    for (let k = 0; k < 5000; k++) {
      const span = [8, 16, 40, 400, 5000, 100000][next(6)] as number;
      const base = next(3) === 0 ? 0 : next(1000);
      const wanted = Array.from({ length: next(k % 10 === 0 ? 200 : 14) }, () => base + next(span));
      const existing = Array.from({ length: next(k % 3 === 0 ? 2 : 10) }, () =>
        next(3) === 0 && wanted.length > 0
          ? (wanted[next(wanted.length)] as number)
          : base + next(span),
      );
      cases.push([wanted, existing]);
    }
    const script =
      'import json, sys\n' +
      'print(json.dumps([list(set(w for w in a) - set(e for e in b)) for a, b in json.load(sys.stdin)]))';
    const expected = JSON.parse(
      execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(cases) }).toString(),
    ) as number[][];
    cases.forEach(([wanted, existing], i) => {
      assert.deepEqual(pythonSetDifferenceOrder(wanted, existing), expected[i], `case ${i}`);
    });
  });
});
