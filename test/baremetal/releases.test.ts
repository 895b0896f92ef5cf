/** The bare metal release mapping: Ironic's entries for Baton's types, `master` derived. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NEW_MODELS } from '../../src/baremetal/db/index.ts';
import { BAREMETAL_OBJECT_TYPES, Node } from '../../src/baremetal/objects/index.ts';
import { BAREMETAL_RELEASES, CURRENT_RELEASE } from '../../src/baremetal/releases.ts';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { convertForDb, convertForWire } from '../../src/objects/index.ts';
import {
  InvalidReleaseMappingError,
  MASTER,
  ReleasePin,
  UnknownReleaseError,
  validateReleaseMapping,
} from '../../src/releases/index.ts';
import { sampleObject } from './support/object-samples.ts';
import { askRealIronic, realIronicUnavailable } from './support/real-ironic.ts';

const CODE = { api: '1.82', rpc: '1.4' };
const objectsOfCode = Object.fromEntries(BAREMETAL_OBJECT_TYPES.map((t) => [t.name, t.version]));

describe('bare metal release mapping', () => {
  test('a name and its semver key are the same entry, as in Ironic', () => {
    assert.equal(BAREMETAL_RELEASES.yoga, BAREMETAL_RELEASES['20.1']);
    assert.equal(BAREMETAL_RELEASES.zed, BAREMETAL_RELEASES['21.1']);
    assert.equal(BAREMETAL_RELEASES.antelope, BAREMETAL_RELEASES['21.4']);
    assert.equal(BAREMETAL_RELEASES.antelope, BAREMETAL_RELEASES['2023.1']);
    assert.equal(CURRENT_RELEASE, 'antelope');
    assert.equal(BAREMETAL_RELEASES[MASTER], undefined, 'master is derived, never written');
    assert.ok(Object.hasOwn(BAREMETAL_RELEASES, CURRENT_RELEASE));
  });

  test('master is derived from the code (served API 1.82, RPC 1.4), equals antelope and passes the mapping check', () => {
    const mapping = BAREMETAL_SERVICE.releases;
    assert.equal(mapping[MASTER]?.api, '1.82');
    assert.equal(mapping[MASTER]?.rpc, '1.4');
    validateReleaseMapping(mapping, { objects: objectsOfCode, ...CODE });
    assert.deepEqual(mapping[MASTER]?.objects.Node, ['1.37']);
    assert.deepEqual(mapping[MASTER], BAREMETAL_RELEASES.antelope);
    // A type bumped without the mapping knowing it is caught by the same check.
    assert.throws(
      () => validateReleaseMapping(mapping, { objects: { ...objectsOfCode, Node: '1.38' } }),
      InvalidReleaseMappingError,
    );
  });

  test("pinned to zed or yoga, the caps are that release's; an unknown pin names the known ones", () => {
    const mapping = BAREMETAL_SERVICE.releases;
    const yoga = ReleasePin.resolve(mapping, 'yoga');
    assert.equal(yoga.apiMaxVersion('1.82'), '1.78');
    assert.equal(yoga.rpcVersionCap('1.4'), '1.0');
    assert.equal(yoga.objectVersion('Port', '1.11'), '1.10');
    const zed = ReleasePin.resolve(mapping, '21.1');
    assert.equal(zed.apiMaxVersion('1.82'), '1.80');
    assert.equal(zed.rpcVersionCap('1.4'), '1.0');
    // New to Baton in antelope (Ironic's zed has them at 1.1): written at 1.1, as the real
    // service pinned to zed writes them.
    assert.equal(zed.objectVersion('Allocation', '1.1'), '1.1');
    assert.equal(zed.objectVersion('DeployTemplate', '1.1'), '1.1');
    assert.equal(zed.objectVersion('Node', '1.37'), '1.36');
    assert.equal(zed.objectVersion('Portgroup', '1.5'), '1.4');
    // New in antelope: zed does not name it, so it is written at its only version.
    assert.equal(zed.objectVersion('NodeInventory', '1.0'), '1.0');
    assert.equal(ReleasePin.resolve(mapping, '2023.1').apiMaxVersion('1.82'), '1.82');
    assert.throws(
      () => ReleasePin.resolve(mapping, 'xena'),
      (error: unknown) =>
        error instanceof UnknownReleaseError &&
        /20\.1, yoga, 21\.1, zed, 21\.4, 2023\.1, antelope, master/.test(error.message),
    );
  });

  test('every object version a release names can be converted to, for the database and the wire', () => {
    for (const [release, entry] of Object.entries(BAREMETAL_RELEASES)) {
      for (const type of BAREMETAL_OBJECT_TYPES) {
        const versions = entry.objects[type.name];
        // A type new in a later release is not named by the earlier ones.
        if (versions === undefined && NEW_MODELS.includes(type.name)) continue;
        assert.ok(versions, `${release} names ${type.name}`);
        for (const version of versions) {
          assert.equal(convertForDb(sampleObject(type), version).version, version);
          assert.equal(convertForWire(sampleObject(type), version).version, version);
        }
      }
    }
    assert.equal(Node.version, '1.37');
  });

  describe('against the real Ironic release mapping', async () => {
    const unavailable = await realIronicUnavailable();
    if (unavailable !== undefined) {
      test(unavailable, { skip: unavailable }, () => {});
      return;
    }
    test("api and object versions are Ironic's for the types Baton implements", async () => {
      const names = Object.keys(BAREMETAL_RELEASES);
      const real = await askRealIronic<
        Record<string, { api: string; rpc: string; objects: Record<string, string[]> }>
      >({ op: 'releases', names });
      for (const name of names) {
        const ours = BAREMETAL_RELEASES[name];
        const theirs = real[name];
        assert.ok(ours && theirs, name);
        assert.equal(ours.api, theirs.api, `${name} api`);
        // Types new to Baton in antelope are not in its earlier entries, whatever Ironic's say.
        const types = BAREMETAL_OBJECT_TYPES.map((t) => t.name).filter(
          (t) => ours === BAREMETAL_RELEASES.antelope || !NEW_MODELS.includes(t),
        );
        const theirObjects = Object.fromEntries(
          types.filter((t) => theirs.objects[t] !== undefined).map((t) => [t, theirs.objects[t]]),
        );
        assert.deepEqual(ours.objects, theirObjects, `${name} objects`);
      }
    });
  });
});
