/** How identifiers are told apart, as Ironic's oslo helpers tell them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isIntLike,
  isUuidLike,
  isValidMac,
  normalizeMac,
} from '../../../src/baremetal/db/index.ts';

test('integers, UUIDs and MAC addresses are recognised as oslo recognises them', () => {
  for (const value of [7, '7', '0', '-3']) assert.equal(isIntLike(value), true, String(value));
  for (const value of ['07', '7.0', 7.5, '', 'x', '1e3'])
    assert.equal(isIntLike(value), false, String(value));
  for (const value of [
    '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    '1BE26C0B03F24D2EAE87C02D7F33C123',
    '{1be26c0b-03f2-4d2e-ae87-c02d7f33c123}',
    'urn:uuid:1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
  ])
    assert.equal(isUuidLike(value), true, value);
  for (const value of ['node-1', '1be26c0b-03f2-4d2e-ae87-c02d7f33c12', 42])
    assert.equal(isUuidLike(value), false, String(value));
  assert.equal(isValidMac('52:54:00:AA:bb:01'), true);
  assert.equal(isValidMac('52-54-00-aa-bb-01'), true);
  assert.equal(isValidMac('52:54:00-aa:bb:01'), false);
  assert.equal(isValidMac('52:54:00:aa:bb'), false);
  assert.equal(normalizeMac('52-54-00-AA-BB-01'), '52:54:00:aa:bb:01');
});
