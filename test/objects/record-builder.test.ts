import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordBuilder } from '../../src/objects/record-builder.ts';

describe('recordBuilder', () => {
  it('makes records of the keys in their order, whatever characters the keys hold', () => {
    const keys = ['uuid', 'a b', '"quoted"', "it's", 'line\nbreak', '}; throw 1; //', '0', 'x'];
    const build = recordBuilder(keys);
    assert.ok(build);
    const values = keys.map((_, i) => ({ i }));
    const record = build(values);
    // Integer-like keys come first in any JS object; the others keep the list's order.
    assert.deepEqual(Object.keys(record), ['0', ...keys.filter((key) => key !== '0')]);
    for (const [i, key] of keys.entries()) assert.equal(record[key], values[i]);
    assert.equal(
      JSON.stringify(build([1, 2, 3, 4, 5, 6, 7, 8])),
      JSON.stringify(Object.fromEntries(keys.map((key, i) => [key, i + 1]))),
    );
  });

  it('gives every record its own object, and a repeated key its last value', () => {
    const build = recordBuilder(['a', 'b', 'a']);
    assert.ok(build);
    const first = build([1, 2, 3]);
    const second = build([4, 5, 6]);
    assert.notEqual(first, second);
    assert.deepEqual(first, { a: 3, b: 2 });
    assert.deepEqual(second, { a: 6, b: 5 });
  });

  it('refuses __proto__, which a literal would take as the prototype', () => {
    assert.equal(recordBuilder(['a', '__proto__']), undefined);
  });
});
