/**
 * The agent token and lookup state rules (common/agent-token.ts) against Ironic 21.4.4's
 * conductor/utils.py and states.py.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FASTTRACK_LOOKUP_ALLOWED_STATES,
  fastTrackAble,
  fastTrackEnabled,
  isAgentTokenPresent,
  isAgentTokenValid,
  LOOKUP_ALLOWED_STATES,
  lookupAllowed,
  newAgentToken,
} from '../../../src/baremetal/common/agent-token.ts';
import { ALL_PROVISION_STATES } from '../../../src/baremetal/common/provision-states.ts';

describe('agent token', () => {
  it('is present for any value but null, valid only when given and equal', () => {
    assert.equal(isAgentTokenPresent({}), false);
    assert.equal(isAgentTokenPresent(null), false);
    assert.equal(isAgentTokenPresent({ agent_secret_token: null }), false);
    assert.equal(isAgentTokenPresent({ agent_secret_token: '' }), true);
    assert.equal(isAgentTokenValid({ agent_secret_token: 't' }, 't'), true);
    assert.equal(isAgentTokenValid({ agent_secret_token: 't' }, 'u'), false);
    assert.equal(isAgentTokenValid({ agent_secret_token: 't' }, null), false);
    // No token is never valid, even against a node without one.
    assert.equal(isAgentTokenValid({}, undefined), false);
    assert.equal(isAgentTokenValid({}, ''), false);
  });

  it("is new each time, as secrets.token_urlsafe()'s 43 URL-safe characters", () => {
    const [a, b] = [newAgentToken(), newAgentToken()];
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b);
  });
});

describe('lookup states', () => {
  it('are the ramdisk states, and with fast track enroll, manageable and available too', () => {
    assert.deepEqual(
      ALL_PROVISION_STATES.filter((state) => lookupAllowed(state, false)).sort(),
      [...LOOKUP_ALLOWED_STATES].sort(),
    );
    assert.equal(LOOKUP_ALLOWED_STATES.length, 8);
    assert.deepEqual(
      FASTTRACK_LOOKUP_ALLOWED_STATES.filter((state) => !LOOKUP_ALLOWED_STATES.includes(state)),
      ['enroll', 'manageable', 'available'],
    );
    assert.equal(lookupAllowed('active', true), false);
    assert.equal(lookupAllowed('available', false), false);
    assert.equal(lookupAllowed('available', true), true);
  });
});

describe('fast track', () => {
  it("is the node's driver_info.fast_track as oslo's strict booleans, else the option", () => {
    assert.equal(fastTrackEnabled({}, true), true);
    assert.equal(fastTrackEnabled(null, false), false);
    assert.equal(fastTrackEnabled({ fast_track: ' Yes ' }, false), true);
    assert.equal(fastTrackEnabled({ fast_track: 'off' }, true), false);
    assert.equal(fastTrackEnabled({ fast_track: false }, true), false);
    assert.throws(
      () => fastTrackEnabled({ fast_track: 'maybe' }, true),
      /^InvalidParameterError: Invalid value of fast_track: Unrecognized value 'maybe', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'$/,
    );
  });

  it('keeps the token only for a node with fast track and no error on record', () => {
    const node = (driverInfo: unknown, lastError: string | null) => ({
      get: (field: 'driver_info' | 'last_error') =>
        field === 'driver_info' ? driverInfo : lastError,
    });
    assert.equal(fastTrackAble(node({ fast_track: true }, null), false), true);
    assert.equal(fastTrackAble(node({ fast_track: true }, 'failed'), false), false);
    assert.equal(fastTrackAble(node({}, null), true), true);
    assert.equal(fastTrackAble(node({}, null), false), false);
    assert.equal(fastTrackAble(node({ fast_track: 'maybe' }, null), true), false);
  });
});
