import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IncompatibleObjectVersionError } from '../../src/objects/index.ts';
import {
  InvalidReleaseMappingError,
  type ReleaseMapping,
  ReleasePin,
  UnknownReleaseError,
  validateReleaseMapping,
} from '../../src/releases/index.ts';

/** A mapping shaped like Ironic's: named and semver releases plus master. */
const MAPPING: ReleaseMapping = {
  '2025.2': { api: '1.92', rpc: '1.58', objects: { Node: ['1.39'], Port: ['1.11'] } },
  '30.0': {
    api: '1.95',
    rpc: '1.60',
    objects: { Node: ['1.39', '1.40'], Port: ['1.11'], Conductor: ['1.3'] },
  },
  master: {
    api: '1.96',
    rpc: '1.61',
    objects: { Node: ['1.40'], Port: ['1.12'], Conductor: ['1.3'] },
  },
};
const LATEST = { api: '1.96', rpc: '1.61' };

describe('release pin', () => {
  for (const setting of [undefined, null, '', '   ']) {
    test(`${JSON.stringify(setting)} means not pinned: latest everywhere`, () => {
      const pin = ReleasePin.resolve(MAPPING, setting);
      assert.equal(pin.pinned, false);
      assert.equal(pin.apiMaxVersion(LATEST.api), '1.96');
      assert.equal(pin.rpcVersionCap(LATEST.rpc), '1.61');
      assert.equal(pin.objectVersion('Node', '1.40'), '1.40');
    });
  }

  test('a named release caps the API, the RPC version and each object version at once', () => {
    const pin = ReleasePin.resolve(MAPPING, '2025.2');
    assert.equal(pin.release, '2025.2');
    assert.equal(pin.apiMaxVersion(LATEST.api), '1.92');
    assert.equal(pin.rpcVersionCap(LATEST.rpc), '1.58');
    assert.equal(pin.objectVersion('Node', '1.40'), '1.39');
    assert.equal(pin.objectVersion('Port', '1.12'), '1.11');
  });

  test('a semver release name works the same way; several versions → the highest', () => {
    const pin = ReleasePin.resolve(MAPPING, '30.0');
    assert.equal(pin.objectVersion('Node', '1.40'), '1.40');
    assert.equal(pin.apiMaxVersion(LATEST.api), '1.95');
  });

  test('an object the pinned release does not list is written at its latest version', () => {
    assert.equal(ReleasePin.resolve(MAPPING, '2025.2').objectVersion('Conductor', '1.3'), '1.3');
  });

  test('an unknown release is a startup error that names the known releases', () => {
    assert.throws(
      () => ReleasePin.resolve(MAPPING, 'zed'),
      (error: unknown) =>
        error instanceof UnknownReleaseError &&
        error.message.includes("'zed'") &&
        error.message.includes('2025.2, 30.0, master'),
    );
    assert.throws(() => ReleasePin.resolve(MAPPING, 'constructor'), UnknownReleaseError);
  });

  test('a pinned version of another major version is refused', () => {
    const pin = ReleasePin.resolve({ ...MAPPING, bad: { objects: { Node: ['2.0'] } } }, 'bad');
    assert.throws(() => pin.objectVersion('Node', '1.40'), IncompatibleObjectVersionError);
  });

  test('validateReleaseMapping accepts a mapping whose master matches the code', () => {
    validateReleaseMapping(MAPPING, { objects: { Node: '1.40', Port: '1.12' }, ...LATEST });
  });

  test('validateReleaseMapping refuses a missing master, bad versions and a stale master', () => {
    const { master: _, ...noMaster } = MAPPING;
    assert.throws(
      () => validateReleaseMapping(noMaster, { objects: {} }),
      InvalidReleaseMappingError,
    );
    assert.throws(
      () =>
        validateReleaseMapping({ ...MAPPING, x: { objects: { Node: ['one'] } } }, { objects: {} }),
      /x: Node version 'one'/,
    );
    assert.throws(
      () => validateReleaseMapping(MAPPING, { objects: { Node: '1.41' } }),
      /master must list Node 1.41/,
    );
    assert.throws(() => validateReleaseMapping(MAPPING, { objects: {}, api: '1.97' }), /api 1.97/);
    assert.throws(() => validateReleaseMapping(MAPPING, { objects: {}, rpc: '1.62' }), /rpc 1.62/);
  });
});
