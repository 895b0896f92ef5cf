import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MalformedVersionError,
  ResolvedVersion,
  ServerConfigError,
  VersionNegotiator,
  VersionNotAcceptableError,
} from '../../src/microversion/index.ts';
import { ironicConfig, placementConfig } from './fixtures/services.ts';

const placement = new VersionNegotiator(placementConfig());
const ironic = new VersionNegotiator(ironicConfig());

function resolvedText(negotiator: VersionNegotiator, headers: Record<string, string>): string {
  const resolved = negotiator.resolve(headers);
  assert.ok(resolved instanceof ResolvedVersion, String(resolved));
  return resolved.text;
}

describe('negotiator (framework-free core)', () => {
  test('no header: the minimum; latest: the maximum; in range: that version', () => {
    assert.equal(resolvedText(placement, {}), '1.0');
    assert.equal(resolvedText(placement, { 'openstack-api-version': 'placement latest' }), '1.39');
    assert.equal(resolvedText(placement, { 'openstack-api-version': 'placement 1.17' }), '1.17');
    assert.equal(resolvedText(ironic, {}), '1.1');
    assert.equal(resolvedText(ironic, { 'x-openstack-ironic-api-version': 'Latest' }), '1.82');
  });

  test('a version is resolved to one shared object with precomputed headers', () => {
    const headers = { 'openstack-api-version': 'placement 1.17' };
    const first = placement.resolve(headers);
    assert.equal(placement.resolve(headers), first);
    assert.equal(placement.resolve({ 'openstack-api-version': 'placement 01.17' }), first);
    assert.deepEqual((first as ResolvedVersion).headers, [
      ['openstack-api-version', 'placement 1.17'],
    ]);
    assert.deepEqual(ironic.defaultVersion.headers, [
      ['x-openstack-ironic-api-version', '1.1'],
      ['x-openstack-ironic-api-minimum-version', '1.1'],
      ['x-openstack-ironic-api-maximum-version', '1.82'],
    ]);
  });

  test('malformed: the service status, the header, the value, the range', () => {
    const error = placement.resolve({ 'openstack-api-version': 'placement 1.2.3' });
    assert.ok(error instanceof MalformedVersionError);
    assert.deepEqual(
      [error.status, error.header, error.value, error.min, error.max],
      [400, 'OpenStack-API-Version', '1.2.3', '1.0', '1.39'],
    );
    const legacy = ironic.resolve({ 'x-openstack-ironic-api-version': 'spam' });
    assert.ok(legacy instanceof MalformedVersionError);
    assert.deepEqual([legacy.status, legacy.header], [406, 'X-OpenStack-Ironic-API-Version']);
  });

  test('out of range: 406 with the requested version and the range', () => {
    const error = placement.resolve({ 'openstack-api-version': 'placement 1.40' });
    assert.ok(error instanceof VersionNotAcceptableError);
    assert.deepEqual(
      [error.status, error.requested, error.min, error.max],
      [406, { major: 1, minor: 40 }, '1.0', '1.39'],
    );
    assert.ok(ironic.resolve({ 'x-openstack-ironic-api-version': '1.0' }) instanceof Error);
    assert.ok(ironic.resolve({ 'x-openstack-ironic-api-version': '2.1' }) instanceof Error);
  });

  test('the pin lowers the effective max: latest and range checks follow it', () => {
    const pinned = new VersionNegotiator(placementConfig({ pinnedMax: '1.30' }));
    assert.equal(pinned.maxText, '1.30');
    assert.equal(resolvedText(pinned, { 'openstack-api-version': 'placement latest' }), '1.30');
    assert.equal(resolvedText(pinned, { 'openstack-api-version': 'placement 1.30' }), '1.30');
    const error = pinned.resolve({ 'openstack-api-version': 'placement 1.31' });
    assert.ok(error instanceof VersionNotAcceptableError);
    assert.equal(error.max, '1.30');
    // A pin above the code's max changes nothing.
    const loose = new VersionNegotiator(placementConfig({ pinnedMax: '1.99' }));
    assert.equal(loose.maxText, '1.39');
  });

  test('lenient resolution (unversioned routes) falls back to the default', () => {
    assert.equal(
      placement.resolveLenient({ 'openstack-api-version': 'placement 0.5' }).text,
      '1.0',
    );
    assert.equal(
      placement.resolveLenient({ 'openstack-api-version': 'placement 1.5' }).text,
      '1.5',
    );
  });

  test('error bodies come from the service formatter', () => {
    const error = placement.resolve({ 'openstack-api-version': 'placement 0.5' });
    assert.ok(error instanceof VersionNotAcceptableError);
    const body = placement.errorBody(error, 'req-1') as { errors: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(body.errors[0] ?? {}).sort(), [
      'detail',
      'max_version',
      'min_version',
      'request_id',
      'status',
      'title',
    ]);
  });

  test('configs that cannot work are refused at startup', () => {
    const cases = [
      [placementConfig({ min: '1.x' }), 'min'],
      [placementConfig({ min: '1.5', max: '1.4' }), 'max'],
      [placementConfig({ pinnedMax: '0.9' }), 'pinnedMax'],
      [placementConfig({ serviceType: 'place ment' }), 'serviceType'],
    ] as const;
    for (const [config, field] of cases) {
      assert.throws(
        () => new VersionNegotiator(config),
        (error: unknown) => error instanceof ServerConfigError && error.field === field,
      );
    }
  });
});
