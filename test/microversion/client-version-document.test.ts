import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readVersionDocument } from '../../src/microversion/client-version-document.ts';
import { formatVersion } from '../../src/microversion/index.ts';

function read(body: unknown): [string, string] | undefined {
  const range = readVersionDocument(body);
  return range === undefined ? undefined : [formatVersion(range.min), formatVersion(range.max)];
}

test("Placement's root document", () => {
  const body = {
    versions: [
      { id: 'v1.0', max_version: '1.39', min_version: '1.0', status: 'CURRENT', links: [] },
    ],
  };
  assert.deepEqual(read(body), ['1.0', '1.39']);
});

test("Ironic's root document (default_version) and its /v1 (version object)", () => {
  const entry = { id: 'v1', status: 'CURRENT', min_version: '1.1', version: '1.82' };
  assert.deepEqual(
    read({ name: 'OpenStack Ironic API', default_version: entry, versions: [entry] }),
    ['1.1', '1.82'],
  );
  assert.deepEqual(read({ default_version: entry }), ['1.1', '1.82']);
  assert.deepEqual(read({ id: 'v1', version: entry }), ['1.1', '1.82']);
});

test("Nova's root: the CURRENT entry wins, a major version without microversions is skipped", () => {
  const body = {
    versions: [
      { id: 'v2.0', status: 'SUPPORTED', version: '', min_version: '' },
      { id: 'v2.1', status: 'CURRENT', version: '2.90', min_version: '2.1' },
    ],
  };
  assert.deepEqual(read(body), ['2.1', '2.90']);
  const supportedFirst = {
    versions: [
      { id: 'v1', status: 'SUPPORTED', version: '1.5', min_version: '1.0' },
      { id: 'v2', status: 'CURRENT', version: '2.3', min_version: '2.0' },
    ],
  };
  assert.deepEqual(read(supportedFirst), ['2.0', '2.3']);
});

test('documents stating no microversions, and bodies that are not documents', () => {
  for (const body of [
    undefined,
    null,
    'text',
    [],
    {},
    { versions: [{ id: 'v1', status: 'CURRENT' }] },
    { versions: 'v1' },
    { version: '1.2' },
    { versions: [{ min_version: '1.0' }] },
    { versions: [{ min_version: 'one', max_version: '1.2' }] },
  ]) {
    assert.equal(readVersionDocument(body), undefined, JSON.stringify(body));
  }
});
