/** Python's UnicodeDecodeError texts for query strings (pinned from CPython 3.11 / WebOb). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { undecodableQuery, utf8Problem } from '../../../src/placement/api/query-bytes.ts';

describe('utf8Problem', () => {
  it('words each kind of bad sequence as Python does', () => {
    const cases: [number[], string][] = [
      [
        [0x61, 0x62, 0xff],
        "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte",
      ],
      [[0xc3], "'utf-8' codec can't decode byte 0xc3 in position 0: unexpected end of data"],
      [
        [0xc3, 0x41],
        "'utf-8' codec can't decode byte 0xc3 in position 0: invalid continuation byte",
      ],
      [[0xe2, 0x82], "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data"],
      [
        [0xe2, 0x82, 0x41],
        "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte",
      ],
      [
        [0xe0, 0x80],
        "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte",
      ],
      [
        [0xed, 0xa0, 0x80],
        "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte",
      ],
      [
        [0xf0, 0x90, 0x80],
        "'utf-8' codec can't decode bytes in position 0-2: unexpected end of data",
      ],
      [
        [0xf4, 0x90],
        "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte",
      ],
      [[0xc0, 0x80], "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte"],
    ];
    for (const [bytes, message] of cases) assert.equal(utf8Problem(bytes), message);
    assert.equal(utf8Problem([...Buffer.from('é€😀', 'utf8')]), undefined);
  });
});

describe('undecodableQuery', () => {
  it('finds the first bad key or value, keys before values', () => {
    assert.equal(
      undecodableQuery('/x?a=1&resources=VCPU:1%ff&k%fe=2'),
      "'utf-8' codec can't decode byte 0xff in position 6: invalid start byte",
    );
    assert.equal(
      undecodableQuery('/x?k%fe=2&resources=VCPU:1%ff'),
      "'utf-8' codec can't decode byte 0xfe in position 1: invalid start byte",
    );
    assert.equal(undecodableQuery('/x?a=%zz&b=+x%2B&c=%C3%A9'), undefined);
    assert.equal(undecodableQuery('/x'), undefined);
  });
});
