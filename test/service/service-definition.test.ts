/**
 * A service defined once: `master` derived from the code's own tables, the release
 * mapping checked when a process starts (an error names the entry), and the pin resolved
 * once into the caps in force, the flag over the config file.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PLACEMENT_VERSIONS } from '../../src/placement/api/versions.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { PLACEMENT_SERVICE_VERSION } from '../../src/placement/service-version.ts';
import {
  InvalidReleaseMappingError,
  type ReleaseMapping,
  UnknownReleaseError,
} from '../../src/releases/index.ts';
import {
  codeVersionsOf,
  defineService,
  resolveCapsInForce,
  type ServiceDefinition,
  serviceNamed,
  UnknownServiceError,
} from '../../src/service/index.ts';
import { Node, NodeList } from '../objects/support/ironic-family.ts';
import { CONDUCTOR_RPC } from '../rpc/support/conductor-family.ts';

/** A conductor-like service: RPC and objects, no API (what the bare metal conductor adds). */
function conductorService(releases: ReleaseMapping): ServiceDefinition {
  return defineService({
    ...PLACEMENT_SERVICE,
    name: 'conductor',
    code: codeVersionsOf({ rpcVersions: CONDUCTOR_RPC, objectTypes: [Node, NodeList] }),
    releases,
  });
}

const withReleases = (service: ServiceDefinition, extra: ReleaseMapping): ServiceDefinition => ({
  ...service,
  releases: { ...service.releases, ...extra },
});

describe('a service definition', () => {
  test("Placement's master is the microversion list's last entry, not a second literal", () => {
    assert.equal(PLACEMENT_SERVICE.code.api, PLACEMENT_VERSIONS.at(-1));
    assert.deepEqual(PLACEMENT_SERVICE.releases.master, {
      api: PLACEMENT_VERSIONS.at(-1),
      objects: {},
      serviceVersion: PLACEMENT_SERVICE_VERSION,
    });
    assert.deepEqual(Object.keys(PLACEMENT_SERVICE.releases), ['2026.1', 'master']);
  });

  test('master follows the RPC versions table and the object types; a written master is refused', () => {
    const conductor = conductorService({ old: { rpc: '1.1', objects: { Node: ['1.14'] } } });
    assert.deepEqual(conductor.releases.master, {
      rpc: CONDUCTOR_RPC.latest,
      objects: { Node: [Node.version], NodeList: [NodeList.version] },
    });
    assert.throws(
      () => conductorService({ master: { rpc: '1.2', objects: {} } }),
      /'master' is derived from the code's versions; do not write it/,
    );
    assert.throws(() => codeVersionsOf({ objectTypes: [Node, Node] }), /Node is listed twice/);
    assert.throws(() => codeVersionsOf({ apiVersions: [] }), /at least one microversion/);
  });

  test('a service is found by name; an unknown one lists the known', () => {
    const services = { placement: PLACEMENT_SERVICE };
    assert.equal(serviceNamed(services, 'placement'), PLACEMENT_SERVICE);
    assert.throws(
      () => serviceNamed(services, 'constructor'),
      (error: unknown) =>
        error instanceof UnknownServiceError && /known services: placement$/.test(error.message),
    );
  });
});

describe('resolveCapsInForce', () => {
  const placement = withReleases(PLACEMENT_SERVICE, { '2025.2': { api: '1.36', objects: {} } });

  test('the pin comes from the config file unless the flag says otherwise', () => {
    assert.equal(resolveCapsInForce(placement, {}).apiMax, '1.39');
    assert.equal(resolveCapsInForce(placement, { file: '2025.2' }).apiMax, '1.36');
    const flagWins = resolveCapsInForce(placement, { flag: '2026.1', file: '2025.2' });
    assert.deepEqual([flagWins.release, flagWins.apiMax], ['2026.1', '1.39']);
    const unpinned = resolveCapsInForce(placement, { flag: '', file: '2025.2' });
    assert.deepEqual([unpinned.release, unpinned.apiMax], [undefined, '1.39']);
  });

  test('caps the RPC version and the objects of a service that has them', () => {
    const conductor = conductorService({ old: { rpc: '1.1', objects: { Node: ['1.14'] } } });
    const caps = resolveCapsInForce(conductor, { file: 'old' });
    assert.equal(caps.rpcCap, '1.1');
    assert.equal(caps.apiMax, undefined);
    assert.equal(caps.objectTargets.objectVersion('Node', Node.version), '1.14');
    assert.equal(caps.objectTargets.objectVersion('NodeList', NodeList.version), NodeList.version);
  });

  test('an unknown pin lists the valid releases', () => {
    assert.throws(
      () => resolveCapsInForce(placement, { file: 'zed' }),
      (error: unknown) =>
        error instanceof UnknownReleaseError &&
        error.message ===
          "pin_release_version 'zed' is not a known release; known releases: 2026.1, master, 2025.2",
    );
  });

  test('a bad release mapping is refused, naming the service and the entry', () => {
    const cases: [ServiceDefinition, string, RegExp][] = [
      [
        withReleases(PLACEMENT_SERVICE, { '2025.2': { api: 'one', objects: {} } }),
        '2025.2',
        /2025\.2: api 'one' is not X\.Y/,
      ],
      [
        withReleases(PLACEMENT_SERVICE, { '2027.1': { api: '1.40', objects: {} } }),
        '2027.1',
        /2027\.1: api 1\.40 is above master's 1\.39/,
      ],
      [
        withReleases(conductorService({}), { old: { rpc: '1.3', objects: {} } }),
        'old',
        /old: rpc 1\.3 is above master's 1\.2/,
      ],
      [
        conductorService({ old: { rpc: '1.1', objects: { Node: ['1.16'] } } }),
        'old',
        /old: Node 1\.16 is not a version the current 1\.15 converts to/,
      ],
      [
        { ...PLACEMENT_SERVICE, releases: { master: { api: '1.38', objects: {} } } },
        'master',
        /master must have api 1\.39, the latest microversion/,
      ],
    ];
    for (const [service, entry, message] of cases) {
      assert.throws(
        () => resolveCapsInForce(service, {}),
        (error: unknown) =>
          error instanceof InvalidReleaseMappingError &&
          error.entry === entry &&
          error.message.startsWith(`the release mapping of service ${service.name} is invalid: `) &&
          message.test(error.message),
        entry,
      );
    }
  });
});
