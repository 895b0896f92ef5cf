/** Python's json.loads messages (pinned from CPython 3.11, the real service's reader). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePythonJson } from '../../../src/placement/api/python-json.ts';

const REFUSED: [string, string][] = [
  ['', 'Expecting value: line 1 column 1 (char 0)'],
  ['{"a":1,}', 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)'],
  ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
  ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
  ['"a\\qb"', 'Invalid \\escape: line 1 column 3 (char 2)'],
  ['"ab\\u12"', 'Invalid \\uXXXX escape: line 1 column 5 (char 4)'],
  ['"a\u0001b"', 'Invalid control character at: line 1 column 3 (char 2)'],
  ['{} x', 'Extra data: line 1 column 4 (char 3)'],
  ['\n\n  {"a":\n x}', 'Expecting value: line 4 column 2 (char 11)'],
  ['"\u00e9" x', 'Extra data: line 1 column 5 (char 4)'],
  ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
  ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
];

describe('parsePythonJson', () => {
  it('refuses what Python refuses, in its words and positions', () => {
    for (const [text, message] of REFUSED) {
      assert.deepEqual(parsePythonJson(text), { error: message }, JSON.stringify(text));
    }
  });

  it('reads what Python reads, NaN and Infinity included', () => {
    assert.deepEqual(parsePythonJson(' {"a": [1, -2.5e1, "\\u00e9\\n", null, true]} '), {
      value: { a: [1, -25, 'é\n', null, true] },
    });
    const special = parsePythonJson('[NaN, Infinity, -Infinity]') as { value: number[] };
    assert.deepEqual(special.value, [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
  });
});
