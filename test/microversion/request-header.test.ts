import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type CompiledHeaderStyle,
  compileHeaderStyle,
  findServiceEntry,
  findRequestedVersion as fromValues,
  type HeaderBag,
  HeaderStyleError,
  lastListElement,
  versionHeaderValues,
} from '../../src/microversion/index.ts';
import { IRONIC_HEADERS } from './fixtures/services.ts';

const standard = compileHeaderStyle({ mode: 'new' });
const both = compileHeaderStyle(IRONIC_HEADERS);
const legacyOnly = compileHeaderStyle({ ...IRONIC_HEADERS, mode: 'legacy' });

function findRequestedVersion(headers: HeaderBag, style: CompiledHeaderStyle, service: string) {
  const { standard, legacy } = versionHeaderValues(headers, style);
  return fromValues(standard, legacy, service);
}

describe('OpenStack-API-Version values', () => {
  test('one entry for the service', () => {
    assert.equal(findServiceEntry('placement 1.20', 'placement'), '1.20');
    assert.equal(findServiceEntry('placement latest', 'placement'), 'latest');
  });

  test('several services, comma-separated, in any order and spacing', () => {
    assert.equal(findServiceEntry('compute 2.1, placement 1.7', 'placement'), '1.7');
    assert.equal(findServiceEntry('placement 1.7,compute 2.1', 'placement'), '1.7');
    assert.equal(findServiceEntry('  compute   2.1 ,\tplacement\t1.7  ', 'placement'), '1.7');
    assert.equal(findServiceEntry('compute 2.1', 'placement'), undefined);
  });

  test('service names compare case-insensitively', () => {
    assert.equal(findServiceEntry('PLACEMENT 1.4', 'placement'), '1.4');
    assert.equal(findServiceEntry('Placement 1.4', 'placement'), '1.4');
  });

  test('when the service appears twice the last entry wins', () => {
    assert.equal(findServiceEntry('placement 1.5, placement 1.9', 'placement'), '1.9');
    assert.equal(
      findServiceEntry('placement 1.5, compute 2.1, placement spam', 'placement'),
      'spam',
    );
  });

  test('entries without a version are skipped; junk after the version is kept for the error', () => {
    assert.equal(findServiceEntry('placement 1.3, placement', 'placement'), '1.3');
    assert.equal(findServiceEntry('placement', 'placement'), undefined);
    assert.equal(findServiceEntry('placement 1.2 extra', 'placement'), '1.2 extra');
    assert.equal(findServiceEntry('placementx 1.2', 'placement'), undefined);
  });

  test('legacy header values: last element, trimmed', () => {
    assert.equal(lastListElement('1.20'), '1.20');
    assert.equal(lastListElement('1.2, 1.31 '), '1.31');
    assert.equal(lastListElement('1.2,'), '');
  });
});

describe('finding the requested version in request headers', () => {
  test('new style reads only the standard header', () => {
    assert.equal(
      findRequestedVersion({ 'openstack-api-version': 'placement 1.8' }, standard, 'placement'),
      '1.8',
    );
    assert.equal(
      findRequestedVersion({ 'x-openstack-ironic-api-version': '1.8' }, standard, 'placement'),
      undefined,
    );
  });

  test('both: standard first, legacy when the standard header has no entry for us', () => {
    const headers = {
      'openstack-api-version': 'baremetal 1.60',
      'x-openstack-ironic-api-version': '1.50',
    };
    assert.equal(findRequestedVersion(headers, both, 'baremetal'), '1.60');
    const other = { ...headers, 'openstack-api-version': 'compute 2.1' };
    assert.equal(findRequestedVersion(other, both, 'baremetal'), '1.50');
    assert.equal(findRequestedVersion({}, both, 'baremetal'), undefined);
  });

  test('legacy style ignores the standard header', () => {
    const headers = { 'openstack-api-version': 'baremetal 1.60' };
    assert.equal(findRequestedVersion(headers, legacyOnly, 'baremetal'), undefined);
  });

  test('array values (repeated headers not folded by the framework) are folded here', () => {
    const headers = { 'openstack-api-version': ['placement 1.2', 'placement 1.4'] };
    assert.equal(findRequestedVersion(headers, standard, 'placement'), '1.4');
  });

  test('a legacy or both style needs a legacy header name', () => {
    assert.throws(() => compileHeaderStyle({ mode: 'both' }), HeaderStyleError);
  });

  test('Vary lists every request header the answer depends on', () => {
    assert.equal(standard.vary, 'openstack-api-version');
    assert.equal(both.vary, 'openstack-api-version, x-openstack-ironic-api-version');
    assert.equal(legacyOnly.vary, 'x-openstack-ironic-api-version');
  });
});
