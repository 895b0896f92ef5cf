/**
 * The node actions with fake hardware (real-ironic-node-actions.test.ts), both services with
 * console `fake` enabled beside `no-console`: the console enabled, shown and disabled, and
 * refused with no-console; inject NMI (1.29); boot mode and secure boot (1.76) with the fake
 * management's refusal in last_error; indicators; vendor passthru of a node and of the
 * hardware type; a console that cannot be started again when a conductor takes the node over
 * (adoption); RAID (1.12): a target configuration checked against the logical disk schema,
 * stored, unset, refused by no-raid, and the logical disk properties. Background work is
 * awaited on both sides before the next step.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';

const V = '1.82';
const C = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c1';
const NC = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c2';
const AD = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c3';
const TD = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c4';
const R = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c5';
const NR = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c6';
const RAID = {
  logical_disks: [
    { raid_level: '1', size_gb: 100, is_root_volume: true, controller: 'c', physical_disks: ['a'] },
    { raid_level: '5', size_gb: 'MAX', disk_type: 'ssd', number_of_physical_disks: 3 },
  ],
};

const put = (path: string, body: unknown, version = V, settle?: string): Exchange => ({
  method: 'PUT',
  path,
  version,
  body,
  ...(settle === undefined ? {} : { settle }),
});
const get = (path: string, version = V): Exchange => ({ path, version });
const post = (path: string, body: unknown, settle?: string): Exchange => ({
  method: 'POST',
  path,
  version: V,
  body,
  ...(settle === undefined ? {} : { settle }),
});
const createNode = (uuid: string, name: string, fields: Record<string, unknown> = {}) =>
  post('/v1/nodes', { uuid, name, driver: 'fake-hardware', ...fields });
const nodeFields = (uuid: string) =>
  get(`/v1/nodes/${uuid}?fields=console_enabled,last_error,boot_mode,secure_boot,reservation`);

const raidFields = (uuid: string, version = V) =>
  get(`/v1/nodes/${uuid}?fields=raid_config,target_raid_config,raid_interface`, version);

export const NODE_ACTION_SCENARIOS: readonly Scenario[] = [
  {
    title: 'node console: fake enabled, shown and disabled; no-console refused',
    steps: [
      createNode(C, 'act-console', { console_interface: 'fake' }),
      createNode(NC, 'act-noconsole', { console_interface: 'no-console' }),
      get(`/v1/nodes/${C}/states/console`),
      get(`/v1/nodes/${C}/states/console`, '1.1'),
      put(`/v1/nodes/${C}/states/console`, { enabled: true }, V, C),
      get(`/v1/nodes/${C}/states/console`),
      get(`/v1/nodes/${C}/states`),
      put(`/v1/nodes/act-console/states/console`, { enabled: 'true' }, V, C),
      put(`/v1/nodes/${C}/states/console`, { enabled: 'maybe' }),
      put(`/v1/nodes/${C}/states/console`, {}),
      put(`/v1/nodes/${C}/states/console`, { enabled: false }, V, C),
      get(`/v1/nodes/${C}/states/console`),
      nodeFields(C),
      put(`/v1/nodes/${NC}/states/console`, { enabled: true }),
      get(`/v1/nodes/${NC}/states/console`),
      get('/v1/nodes/act-missing/states/console'),
      get(`/v1/nodes/${C}/states/console?x=1`),
      put(`/v1/nodes/${C}/management/inject_nmi`, { x: 1 }),
      put(`/v1/nodes/${C}/states/boot_mode`, { target: 'uefi', x: 1 }),
      get(`/v1/nodes/${C}/management/indicators/led@system?x=1`),
      put(`/v1/nodes/${C}/management/indicators/led@system`, { state: 'on', x: 1 }),
      get(`/v1/nodes/${C}/vendor_passthru/methods?x=1`),
      put(`/v1/nodes/${C}/states/console`, { enabled: true, x: 1 }),
    ],
  },
  {
    title: 'a console that cannot be started when the node is taken over (adopt) is turned off',
    steps: [
      createNode(AD, 'act-adopt', { console_interface: 'fake' }),
      put(`/v1/nodes/${AD}/states/console`, { enabled: true }, V, AD),
      {
        method: 'PATCH',
        path: `/v1/nodes/${AD}`,
        version: V,
        body: [{ op: 'replace', path: '/console_interface', value: 'no-console' }],
        unlike: ['updated_at'],
      },
      put(`/v1/nodes/${AD}/states/provision`, { target: 'manage' }, V, AD),
      put(`/v1/nodes/${AD}/states/provision`, { target: 'adopt' }, V, AD),
      get(`/v1/nodes/${AD}?fields=provision_state,console_enabled,last_error`),
    ],
  },
  {
    title: 'undeploying stops the console; one that cannot be stopped fails the tear-down',
    steps: [
      createNode(TD, 'act-teardown', { console_interface: 'fake' }),
      put(`/v1/nodes/${TD}/states/provision`, { target: 'manage' }, V, TD),
      put(`/v1/nodes/${TD}/states/provision`, { target: 'provide' }, V, TD),
      put(`/v1/nodes/${TD}/states/provision`, { target: 'active' }, V, TD),
      put(`/v1/nodes/${TD}/states/console`, { enabled: true }, V, TD),
      put(`/v1/nodes/${TD}/states/provision`, { target: 'deleted' }, V, TD),
      get(`/v1/nodes/${TD}?fields=provision_state,console_enabled,last_error`),
      put(`/v1/nodes/${TD}/states/provision`, { target: 'active' }, V, TD),
      // Interfaces of an active node change only in maintenance.
      put(`/v1/nodes/${TD}/maintenance`, { reason: 'console' }),
      {
        method: 'PATCH',
        path: `/v1/nodes/${TD}`,
        version: V,
        body: [{ op: 'replace', path: '/console_interface', value: 'no-console' }],
        unlike: ['updated_at'],
      },
      { method: 'DELETE', path: `/v1/nodes/${TD}/maintenance`, version: V },
      put(`/v1/nodes/${TD}/states/provision`, { target: 'deleted' }, V, TD),
      get(`/v1/nodes/${TD}?fields=provision_state,console_enabled,last_error`),
    ],
  },
  {
    title: 'inject NMI, boot mode and secure boot with the fake management',
    steps: [
      put(`/v1/nodes/${C}/management/inject_nmi`, {}, '1.28'),
      put(`/v1/nodes/${C}/management/inject_nmi`, {}),
      put(`/v1/nodes/${C}/states/boot_mode`, { target: 'uefi' }, '1.75'),
      put(`/v1/nodes/${C}/states/boot_mode`, { target: 'efi' }),
      put(`/v1/nodes/${C}/states/boot_mode`, { target: null }),
      put(`/v1/nodes/${C}/states/boot_mode`, { target: 'uefi' }, V, C),
      nodeFields(C),
      put(`/v1/nodes/${C}/states/secure_boot`, { target: true }, '1.75'),
      put(`/v1/nodes/${C}/states/secure_boot`, { target: 'maybe' }),
      put(`/v1/nodes/${C}/states/secure_boot`, { target: null }),
      put(`/v1/nodes/${C}/states/secure_boot`, { target: true }, V, C),
      get(`/v1/nodes/${C}/states`),
    ],
  },
  {
    title: "indicators: the fake management's two, their state, and the refusals",
    steps: [
      get(`/v1/nodes/${C}/management/indicators`),
      get('/v1/nodes/act-console/management/indicators', '1.62'),
      get(`/v1/nodes/${C}/management/indicators?component=system&x=1`),
      get(`/v1/nodes/${C}/management/indicators/led@system`),
      get(`/v1/nodes/${C}/management/indicators/led-0@chassis`),
      get(`/v1/nodes/${C}/management/indicators/led`),
      get(`/v1/nodes/${C}/management/indicators/led@disk`),
      get(`/v1/nodes/${C}/management/indicators/nope@system`),
      put(`/v1/nodes/${C}/management/indicators/led@system`, { state: 'off' }),
      nodeFields(C),
    ],
  },
  {
    title: 'vendor passthru: the fake vendor of a node, and of fake-hardware',
    steps: [
      get(`/v1/nodes/${C}/vendor_passthru/methods`),
      post(`/v1/nodes/${C}/vendor_passthru?method=third_method_sync`, { bar: 'meow' }),
      post(`/v1/nodes/${C}/vendor_passthru?method=third_method_sync`, { bar: 'woof' }),
      post(`/v1/nodes/${C}/vendor_passthru/third_method_sync`, { bar: 'meow' }),
      post('/v1/drivers/fake-hardware/vendor_passthru/first_method', { bar: 'baz' }),
      post(`/v1/nodes/${C}/vendor_passthru?method=second_method`, { bar: 'kazoo' }, C),
      post(`/v1/nodes/${C}/vendor_passthru?method=fourth_method_shared_lock`, { bar: 'woof' }),
      get(`/v1/nodes/${C}/vendor_passthru?method=second_method`),
      post(`/v1/nodes/${C}/vendor_passthru?method=second_method`, {}),
      post(`/v1/nodes/${C}/vendor_passthru?method=nope`, {}),
      post(`/v1/nodes/${C}/vendor_passthru?method=`, {}),
      post(`/v1/nodes/${C}/vendor_passthru`, {}),
      post(`/v1/nodes/${C}/vendor_passthru?method=third_method_sync`, { bar: 'meow', x: 1 }),
      post(`/v1/nodes/${C}/vendor_passthru?method=second_method`, { bar: 'x', x: 1 }, C),
      nodeFields(C),
      get('/v1/drivers/fake-hardware/vendor_passthru/methods'),
      post('/v1/drivers/fake-hardware/vendor_passthru?method=first_method', { bar: 'baz' }),
      get('/v1/drivers/ipmi/vendor_passthru/methods'),
    ],
  },
  {
    title: 'node RAID: the target configuration checked and stored, unset, refused by no-raid',
    steps: [
      createNode(R, 'act-raid'),
      createNode(NR, 'act-noraid', { raid_interface: 'no-raid' }),
      put(`/v1/nodes/${R}/states/raid`, RAID, '1.11'),
      put(`/v1/nodes/${R}/states/raid`, RAID),
      raidFields(R),
      raidFields(R, '1.11'),
      get(`/v1/nodes/${R}/states`),
      get(`/v1/nodes/${R}/states`, '1.11'),
      put(`/v1/nodes/${R}/states/raid`, { logical_disks: [] }),
      put(`/v1/nodes/${R}/states/raid`, { logical_disks: [{ raid_level: '7', size_gb: 1 }] }),
      put(`/v1/nodes/${R}/states/raid`, { logical_disks: [{ raid_level: '1', size_gb: -1 }] }),
      put(`/v1/nodes/${R}/states/raid`, { logical_disks: [{ raid_level: '1', size_gb: 1.5 }] }),
      put(`/v1/nodes/${R}/states/raid`, {
        logical_disks: [{ raid_level: '1', size_gb: 1, physical_disks: ['a', 'b'] }],
      }),
      put(`/v1/nodes/${R}/states/raid`, {
        logical_disks: [{ raid_level: '1', size_gb: 1, number_of_physical_disks: 0 }],
      }),
      put(`/v1/nodes/${R}/states/raid`, {
        logical_disks: [
          { raid_level: '1', size_gb: 'MAX', is_root_volume: true },
          { raid_level: '0', size_gb: 10, is_root_volume: true },
        ],
      }),
      put(`/v1/nodes/${R}/states/raid`, { foo: 1 }),
      put(`/v1/nodes/${R}/states/raid`, ['logical_disks']),
      put(`/v1/nodes/${R}/states/raid`, 'x'),
      put(`/v1/nodes/${R}/states/raid`, null),
      raidFields(R),
      put(`/v1/nodes/${R}/states/raid?x=1`, {}),
      put(`/v1/nodes/act-raid/states/raid`, {}),
      raidFields(R),
      { method: 'PUT', path: `/v1/nodes/${R}/states/raid`, version: V },
      put(`/v1/nodes/${NR}/states/raid`, RAID),
      put(`/v1/nodes/${NR}/states/raid`, {}),
      raidFields(NR),
      put('/v1/nodes/act-missing/states/raid', RAID),
      get('/v1/drivers/fake-hardware/raid/logical_disk_properties'),
      get('/v1/drivers/fake-hardware/raid/logical_disk_properties', '1.11'),
      get('/v1/drivers/fake-hardware/raid/logical_disk_properties?x=1'),
      get('/v1/drivers/ipmi/raid/logical_disk_properties'),
    ],
  },
];

const DP = 'ac7105e0-03f2-4d2e-ae87-c02d7f33c0c5';

/** With `[fake] deploy_delay` set on both sides, so that a node stays `deploying` a while. */
export const TRANSITIONAL_SCENARIOS: readonly Scenario[] = [
  {
    title: 'boot mode and secure boot refused while the node is deploying (409)',
    steps: [
      createNode(DP, 'act-deploying'),
      put(`/v1/nodes/${DP}/states/provision`, { target: 'manage' }, V, DP),
      put(`/v1/nodes/${DP}/states/provision`, { target: 'provide' }, V, DP),
      put(`/v1/nodes/${DP}/states/provision`, { target: 'active' }),
      put(`/v1/nodes/${DP}/states/boot_mode`, { target: 'uefi' }),
      put(`/v1/nodes/${DP}/states/secure_boot`, { target: true }, V, DP),
      get(`/v1/nodes/${DP}?fields=provision_state,boot_mode,secure_boot,last_error`),
    ],
  },
];
