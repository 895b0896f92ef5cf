/** The service-version spec's automatic caps: the oldest live service names a release; too old is refused. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  capsInForce,
  deploymentCaps,
  describeCapsSource,
  InvalidReleaseMappingError,
  LiveCaps,
  oldestSupportedVersion,
  previousRelease,
  type ReleaseMapping,
  releaseOfServiceVersion,
  servicesThatCannotRead,
  servicesTooOld,
  validateReleaseMapping,
} from '../../src/releases/index.ts';

const BEFORE = { api: '1.90', rpc: '1.57', objects: { Node: ['1.38'] }, serviceVersion: 4 };
const PREVIOUS = { api: '1.92', rpc: '1.58', objects: { Node: ['1.39'] }, serviceVersion: 5 };
const MAPPING: ReleaseMapping = {
  '2025.1': BEFORE,
  '30.0': PREVIOUS,
  '2025.2': PREVIOUS,
  '2026.1': { api: '1.96', rpc: '1.61', objects: { Node: ['1.40'] }, serviceVersion: 7 },
  master: { api: '1.96', rpc: '1.61', objects: { Node: ['1.40'] }, serviceVersion: 7 },
};
const conductor = (host: string, version: number) => ({
  binary: 'x-conductor',
  host,
  version,
});

describe('service versions and releases', () => {
  test('a service version names the release with the highest version at or below it', () => {
    assert.equal(releaseOfServiceVersion(MAPPING, 5), '2025.2', 'the name over the number');
    assert.equal(releaseOfServiceVersion(MAPPING, 6), '2025.2', 'a build between two releases');
    assert.equal(releaseOfServiceVersion(MAPPING, 7), '2026.1');
    assert.equal(releaseOfServiceVersion(MAPPING, 3), undefined);
    assert.equal(oldestSupportedVersion(MAPPING), 5);
    assert.equal(previousRelease(MAPPING), '2025.2');
  });

  test('no pin: latest while nothing older runs, else the oldest live service’s release', () => {
    const latest = deploymentCaps(MAPPING, undefined, [conductor('a', 7), conductor('b', 8)]);
    assert.deepEqual(latest.source, { kind: 'latest' });
    assert.equal(latest.rpcCap, '1.61');
    assert.equal(describeCapsSource(latest), 'latest');
    const empty = deploymentCaps(MAPPING, '', []);
    assert.equal(empty.source.kind, 'latest');

    const auto = deploymentCaps(MAPPING, undefined, [
      conductor('a', 7),
      conductor('b', 5),
      { binary: 'x-api', host: 'c', version: 6 },
    ]);
    assert.deepEqual(auto.source, {
      kind: 'auto',
      binary: 'x-conductor',
      host: 'b',
      serviceVersion: 5,
    });
    assert.equal(auto.release, '2025.2');
    assert.equal(auto.rpcCap, '1.58');
    assert.equal(auto.objectTargets.objectVersion('Node', '1.40'), '1.39');
    assert.equal(auto.apiMax, '1.92', 'automatic caps limit the API to the oldest live release');
    assert.equal(describeCapsSource(auto), 'auto from x-conductor@5 (2025.2, host b)');
  });

  test('the pin overrides whatever runs', () => {
    const pinned = deploymentCaps(MAPPING, '2025.1', [conductor('b', 5)]);
    assert.deepEqual(pinned.source, { kind: 'pin' });
    assert.equal(pinned.rpcCap, '1.57');
    assert.equal(pinned.apiMax, '1.90');
    assert.equal(describeCapsSource(pinned), 'pin 2025.1');
    assert.deepEqual(capsInForce(MAPPING, undefined).source, { kind: 'latest' });
  });

  test('older than the previous release is too old to talk to', () => {
    const live = [conductor('a', 7), conductor('b', 4), conductor('c', 5)];
    assert.deepEqual(servicesTooOld(MAPPING, live), [conductor('b', 4)]);
    // The caps shown beside it are still its release's, or the oldest the mapping knows.
    assert.equal(deploymentCaps(MAPPING, undefined, live).release, '2025.1');
    assert.equal(deploymentCaps(MAPPING, undefined, [conductor('z', 1)]).release, '2025.1');
  });

  test('who cannot read the latest versions: every live service of an older release', () => {
    const blockers = servicesThatCannotRead(MAPPING, [conductor('a', 7), conductor('b', 5)]);
    assert.deepEqual(blockers, [
      {
        service: conductor('b', 5),
        release: '2025.2',
        objects: [{ type: 'Node', version: '1.40' }],
      },
    ]);
    assert.deepEqual(servicesThatCannotRead(MAPPING, [conductor('a', 7)]), []);
  });

  test('the mapping’s service versions are checked: positive integers, none above master’s', () => {
    const current = { objects: { Node: '1.40' }, api: '1.96', rpc: '1.61', serviceVersion: 7 };
    validateReleaseMapping(MAPPING, current);
    assert.throws(
      () => validateReleaseMapping({ ...MAPPING, bad: { ...BEFORE, serviceVersion: 9 } }, current),
      (error: unknown) =>
        error instanceof InvalidReleaseMappingError &&
        error.message === "bad: service version 9 is above master's 7",
    );
    assert.throws(
      () => validateReleaseMapping({ ...MAPPING, bad: { ...BEFORE, serviceVersion: 0 } }, current),
      /bad: service version 0 is not a positive integer/,
    );
    assert.throws(
      () => validateReleaseMapping(MAPPING, { ...current, serviceVersion: 8 }),
      /master must have service version 8/,
    );
  });
});

describe('LiveCaps', () => {
  test('consumers built once read the caps in force now; listeners hear of a change', () => {
    const live = new LiveCaps(capsInForce(MAPPING, undefined));
    const targets = live.objectTargets;
    const seen: string[] = [];
    live.onUpdate((caps) => seen.push(describeCapsSource(caps)));
    assert.equal(targets.objectVersion('Node', '1.40'), '1.40');
    live.update(deploymentCaps(MAPPING, undefined, [conductor('b', 5)]));
    assert.equal(targets.objectVersion('Node', '1.40'), '1.39');
    assert.equal(live.rpcCap, '1.58');
    assert.equal(live.source.kind, 'auto');
    assert.deepEqual(seen, ['auto from x-conductor@5 (2025.2, host b)']);
  });
});
