import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineFeatures, GatedFields, parseVersion } from '../../src/microversion/index.ts';

const VERSIONS = ['1.1', '1.2', '1.50', '1.65', '1.82'] as const;
const F = defineFeatures(VERSIONS, { owner: '1.50', lessee: '1.65', shard: '1.82' });

describe('gated fields', () => {
  const fields = new GatedFields({
    uuid: null,
    owner: F.owner,
    name: null,
    lessee: F.lessee,
    shard: F.shard,
  });

  test('a version shows the ungated fields and those whose gate it reached, in declared order', () => {
    assert.deepEqual(fields.at(parseVersion('1.1')), ['uuid', 'name']);
    assert.deepEqual(fields.at(parseVersion('1.50')), ['uuid', 'owner', 'name']);
    assert.deepEqual(fields.at(parseVersion('1.81')), ['uuid', 'owner', 'name', 'lessee']);
    assert.deepEqual(fields.at(parseVersion('1.82')), ['uuid', 'owner', 'name', 'lessee', 'shard']);
  });

  test('the same version gets the same frozen list', () => {
    const first = fields.at(parseVersion('1.65'));
    assert.equal(fields.at(parseVersion('1.65')), first);
    assert.ok(Object.isFrozen(first));
  });

  test('has answers for one field', () => {
    assert.equal(fields.has('lessee', parseVersion('1.64')), false);
    assert.equal(fields.has('lessee', parseVersion('1.65')), true);
    assert.equal(fields.has('uuid', parseVersion('1.1')), true);
  });

  test('gates of two APIs cannot be mixed', () => {
    const other = defineFeatures(['1.0', '1.50'], { owner: '1.50' });
    assert.throws(() => new GatedFields({ a: F.owner, b: other.owner }), /mix features tables/);
  });
});
