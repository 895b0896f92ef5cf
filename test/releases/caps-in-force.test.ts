/** The caps in force: one value capping the API, the RPC version and the objects at once. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  capsInForce,
  InvalidReleaseMappingError,
  type ReleaseMapping,
  UnknownReleaseError,
} from '../../src/releases/index.ts';

const MAPPING: ReleaseMapping = {
  '2025.2': { api: '1.92', rpc: '1.58', objects: { Node: ['1.39'], Port: ['1.11'] } },
  master: { api: '1.96', rpc: '1.61', objects: { Node: ['1.40'], Port: ['1.12'] } },
};

describe('capsInForce', () => {
  test('not pinned: the code’s own versions, from master', () => {
    for (const pin of [undefined, null, '', '  ']) {
      const caps = capsInForce(MAPPING, pin);
      assert.equal(caps.release, undefined);
      assert.equal(caps.apiMax, '1.96');
      assert.equal(caps.rpcCap, '1.61');
      assert.equal(caps.objectTargets.objectVersion('Node', '1.40'), '1.40');
    }
  });

  test('pinned: the API max, the RPC cap and every object version come from the release', () => {
    const caps = capsInForce(MAPPING, '2025.2');
    assert.equal(caps.release, '2025.2');
    assert.equal(caps.apiMax, '1.92');
    assert.equal(caps.rpcCap, '1.58');
    assert.equal(caps.objectTargets.objectVersion('Node', '1.40'), '1.39');
    assert.equal(caps.objectTargets.objectVersion('Port', '1.12'), '1.11');
    assert.ok(Object.isFrozen(caps));
  });

  test('a service without RPC (Placement) has no RPC cap; one without an API, no API max', () => {
    const apiOnly = capsInForce(
      { '2026.1': { api: '1.39', objects: {} }, master: { api: '1.39', objects: {} } },
      '2026.1',
    );
    assert.deepEqual([apiOnly.apiMax, apiOnly.rpcCap], ['1.39', undefined]);
    const rpcOnly = capsInForce({ master: { rpc: '1.2', objects: {} } }, undefined);
    assert.deepEqual([rpcOnly.apiMax, rpcOnly.rpcCap], [undefined, '1.2']);
  });

  test('an unknown release names the known ones; a mapping without master is refused', () => {
    assert.throws(
      () => capsInForce(MAPPING, 'zed'),
      (error: unknown) =>
        error instanceof UnknownReleaseError &&
        /known releases: 2025\.2, master$/.test(error.message),
    );
    const { master: _, ...noMaster } = MAPPING;
    assert.throws(() => capsInForce(noMaster, undefined), InvalidReleaseMappingError);
  });
});
