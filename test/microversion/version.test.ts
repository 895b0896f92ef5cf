import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compareVersions,
  formatVersion,
  InvalidVersionError,
  isLatest,
  parseVersion,
  tryParseVersion,
  VersionListError,
  versionRange,
} from '../../src/microversion/index.ts';

describe('version values', () => {
  test('parses X.Y into integers', () => {
    assert.deepEqual(parseVersion('1.0'), { major: 1, minor: 0 });
    assert.deepEqual(parseVersion('1.39'), { major: 1, minor: 39 });
    assert.deepEqual(parseVersion('10.200'), { major: 10, minor: 200 });
    assert.deepEqual(parseVersion('999999999999999.0'), { major: 999999999999999, minor: 0 });
  });

  test('accepts leading zeros like Python int() in Placement and Ironic, and normalises them', () => {
    assert.deepEqual(parseVersion('01.2'), { major: 1, minor: 2 });
    assert.equal(formatVersion(parseVersion('1.002')), '1.2');
  });

  test('rejects everything that is not digits.digits', () => {
    const bad = [
      '',
      '1',
      '1.',
      '.1',
      '1.2.3',
      '1.2.3.4.5',
      'spam',
      'l33t',
      ' 1.2',
      '1.2 ',
      '+1.2',
      '-1.2',
      '1.-2',
      '1_0.2',
      '1,2',
      '1.2a',
      '0x1.2',
      '１.２',
      '1.1e3',
      '1234567890123456.0',
      'latest',
    ];
    for (const text of bad) {
      assert.equal(tryParseVersion(text), undefined, text);
      assert.throws(() => parseVersion(text), InvalidVersionError, text);
    }
  });

  test('the parse error says what was given and what is expected', () => {
    assert.throws(
      () => parseVersion('1.2.3'),
      (error: unknown) =>
        error instanceof InvalidVersionError &&
        error.input === '1.2.3' &&
        error.expected === 'X.Y' &&
        error.message.includes('"X.Y"'),
    );
  });

  test('compares as integer tuples: 1.9 < 1.15 < 2.0', () => {
    const v = parseVersion;
    assert.ok(compareVersions(v('1.9'), v('1.15')) < 0);
    assert.ok(compareVersions(v('1.15'), v('2.0')) < 0);
    assert.ok(compareVersions(v('2.0'), v('1.99')) > 0);
    assert.equal(compareVersions(v('1.10'), v('01.10')), 0);
  });

  test('latest is recognised case-insensitively, nothing else', () => {
    for (const text of ['latest', 'LATEST', 'Latest']) assert.ok(isLatest(text), text);
    for (const text of ['latest ', 'lates', 'latests', '']) assert.ok(!isLatest(text), text);
  });
});

describe('version lists', () => {
  test('the range is the first and the last element', () => {
    assert.deepEqual(versionRange(['1.0', '1.1', '1.2', '1.10']), { min: '1.0', max: '1.10' });
  });

  test('a list out of order, with a duplicate, a typo or nothing is refused', () => {
    assert.throws(
      () => versionRange(['1.0', '1.2', '1.1']),
      (error: unknown) => {
        return error instanceof VersionListError && error.index === 2 && error.entry === '1.1';
      },
    );
    assert.throws(() => versionRange(['1.0', '1.0']), VersionListError);
    assert.throws(() => versionRange(['1.0', '1,1']), InvalidVersionError);
    assert.throws(() => versionRange([]), VersionListError);
  });
});
