/** The rules a node patch needs, by the paths it touches (_authorize_patch_and_get_node). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodePatchRules } from '../../../src/baremetal/api/node-access.ts';

const rules = (...ops: { path: string; value?: unknown }[]) => nodePatchRules(ops);

describe('nodePatchRules', () => {
  it('names the rule of each field, in the order of the patch', () => {
    assert.deepEqual(rules({ path: '/name' }, { path: '/extra/a' }), [
      'baremetal:node:update:name',
      'baremetal:node:update_extra',
    ]);
    assert.deepEqual(rules({ path: '/properties/cpus' }), ['baremetal:node:update:properties']);
    assert.deepEqual(rules({ path: '/instance_info/image_source' }), [
      'baremetal:node:update_instance_info',
    ]);
    assert.deepEqual(rules({ path: '/owner' }, { path: '/lessee' }), [
      'baremetal:node:update:owner',
      'baremetal:node:update:lessee',
    ]);
  });

  it('driver and interface fields are the driver interfaces rule', () => {
    for (const path of [
      '/driver',
      '/driver_interfaces',
      '/deploy_interface',
      '/vendor_interface',
    ]) {
      assert.deepEqual(rules({ path }), ['baremetal:node:update:driver_interfaces'], path);
    }
    // Not an interface kind: the generic rule.
    assert.deepEqual(rules({ path: '/network_interface_x' }), ['baremetal:node:update']);
  });

  it('turning automated cleaning off is its own rule; on is a generic update', () => {
    for (const value of [false, 'false', 'off', 'no', '0', 0]) {
      assert.deepEqual(rules({ path: '/automated_clean', value }), [
        'baremetal:node:disable_cleaning',
      ]);
    }
    for (const value of [true, 'true', null, 'maybe']) {
      assert.deepEqual(rules({ path: '/automated_clean', value }), ['baremetal:node:update']);
    }
  });

  it('any other field adds the generic rule; an empty patch needs it alone', () => {
    assert.deepEqual(rules({ path: '/description' }, { path: '/name' }), [
      'baremetal:node:update:name',
      'baremetal:node:update',
    ]);
    assert.deepEqual(rules(), ['baremetal:node:update']);
  });
});
