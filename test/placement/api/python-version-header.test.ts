import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pyRepr, readVersionHeader } from '../../../src/placement/api/python-version-header.ts';
import { PLACEMENT_VERSIONS } from '../../../src/placement/api/versions.ts';

const read = (header: string | undefined) => readVersionHeader(header, PLACEMENT_VERSIONS);

describe('the version header read as microversion_parse reads it', () => {
  it('finds the last placement entry; other services and bare names are skipped', () => {
    assert.deepEqual(read(undefined), { kind: 'default' });
    assert.deepEqual(read('compute 2.1'), { kind: 'default' });
    assert.deepEqual(read('placement'), { kind: 'default' });
    assert.deepEqual(read('placement 1.2, compute 2.1'), { kind: 'version', text: '1.2' });
    assert.deepEqual(read('placement 1.2,placement  1.3 '), { kind: 'version', text: '1.3' });
    assert.deepEqual(read('Placement latest'), { kind: 'version', text: '1.39' });
  });

  it('reads each side with int(): signs, zeros, underscores and inner spaces', () => {
    assert.deepEqual(read('placement +01.0_5'), { kind: 'version', text: '1.5' });
    assert.deepEqual(read('placement 1.\t5'), { kind: 'version', text: '1.5' });
    assert.deepEqual(read('placement -0.0'), {
      kind: 'unacceptable',
      message: 'Unacceptable version header: -0.0',
    });
    assert.deepEqual(read('placement 99999999999999999999.1'), {
      kind: 'unacceptable',
      message: 'Unacceptable version header: 99999999999999999999.1',
    });
  });

  it('words malformed versions as Python does', () => {
    assert.deepEqual(read('placement 1__0.5'), {
      kind: 'malformed',
      message: "invalid version string: 1__0.5; invalid literal for int() with base 10: '1__0'",
    });
    assert.deepEqual(read('placement .5'), {
      kind: 'malformed',
      message: "invalid version string: .5; invalid literal for int() with base 10: ''",
    });
    assert.deepEqual(read('placement 7'), {
      kind: 'malformed',
      message:
        "invalid version string: 7; Version.__new__() missing 1 required positional argument: 'minor'",
    });
  });

  it("quotes like Python's repr", () => {
    assert.equal(pyRepr('abc'), "'abc'");
    assert.equal(pyRepr("a'b"), `"a'b"`);
    assert.equal(pyRepr(`a'"b`), `'a\\'"b'`);
    assert.equal(pyRepr('a\\b\t\u0001\u00a0é'), "'a\\\\b\\t\\x01\\xa0é'");
  });
});
