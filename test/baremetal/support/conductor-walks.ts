/**
 * Walks of a fake-hardware node through the conductor: the requests a user makes, in order.
 * The real Ironic's answers and node fields after each step are recorded by
 * capture-conductor-walks.ts; the conductor tests replay the same walks against Baton's
 * manager and compare.
 */

export interface WalkStep {
  readonly name: string;
  readonly method: 'PUT' | 'PATCH' | 'POST' | 'DELETE' | 'GET';
  readonly path: string;
  readonly body?: unknown;
}

export interface ConductorWalk {
  readonly name: string;
  /** Fields of the node created for the walk, besides `driver: fake-hardware`. */
  readonly create?: Record<string, unknown>;
  /** Only in the run with `[conductor] automated_clean` set so. */
  readonly automatedClean?: boolean;
  readonly steps: readonly WalkStep[];
}

const provision = (target: string, extra: Record<string, unknown> = {}): WalkStep => ({
  name: `provision ${target}`,
  method: 'PUT',
  path: '/nodes/{node}/states/provision',
  body: { target, ...extra },
});
const power = (target: string, extra: Record<string, unknown> = {}): WalkStep => ({
  name: `power ${target}`,
  method: 'PUT',
  path: '/nodes/{node}/states/power',
  body: { target, ...extra },
});
const patch = (name: string, ops: unknown[]): WalkStep => ({
  name,
  method: 'PATCH',
  path: '/nodes/{node}',
  body: ops,
});
const maintenance = (on: boolean): WalkStep =>
  on
    ? {
        name: 'maintenance on',
        method: 'PUT',
        path: '/nodes/{node}/maintenance',
        body: { reason: 'checking' },
      }
    : { name: 'maintenance off', method: 'DELETE', path: '/nodes/{node}/maintenance' };

export const CONDUCTOR_WALKS: readonly ConductorWalk[] = [
  {
    name: 'enroll to active and back',
    steps: [
      provision('manage'),
      provision('provide'),
      provision('active'),
      power('power off'),
      power('power on'),
      power('rebooting'),
      power('soft power off'),
      power('soft rebooting', { timeout: 30 }),
      provision('deleted'),
      provision('manage'),
    ],
  },
  {
    name: 'deploy with instance info, rebuild, undeploy',
    create: { instance_info: { image_source: 'http://example.com/image.qcow2' } },
    steps: [
      provision('manage'),
      provision('provide'),
      patch('set instance_uuid', [
        { op: 'add', path: '/instance_uuid', value: '7f0d4a2e-3b1b-4c6e-9a55-2f4a6f0b5c11' },
      ]),
      provision('active', { configdrive: 'Y29uZmlnZHJpdmU=' }),
      provision('deploy'),
      provision('rebuild'),
      provision('undeploy'),
    ],
  },
  {
    name: 'refusals in the wrong state',
    steps: [
      provision('provide'),
      provision('active'),
      provision('inspect'),
      provision('abort'),
      provision('rescue', { rescue_password: 'p' }),
      provision('manage'),
      provision('manage'),
      provision('deleted'),
      provision('unrescue'),
      provision('adopt'),
      provision('adopt'),
    ],
  },
  {
    name: 'inspect and manual clean',
    steps: [
      provision('manage'),
      provision('inspect'),
      provision('clean', { clean_steps: [{ interface: 'bios', step: 'factory_reset' }] }),
      provision('clean', { clean_steps: [{ interface: 'deploy', step: 'erase_devices' }] }),
      provision('manage'),
      provision('clean', {
        clean_steps: [{ interface: 'bios', step: 'factory_reset' }],
        disable_ramdisk: true,
      }),
    ],
  },
  {
    name: 'rescue and unrescue',
    steps: [
      provision('manage'),
      provision('provide'),
      provision('active'),
      provision('rescue', { rescue_password: 'secret' }),
      provision('unrescue'),
      provision('rescue', { rescue_password: 'again' }),
      provision('deleted'),
    ],
  },
  {
    name: 'maintenance blocks provisioning',
    steps: [
      provision('manage'),
      maintenance(true),
      provision('provide'),
      provision('inspect'),
      provision('clean', { clean_steps: [{ interface: 'bios', step: 'factory_reset' }] }),
      maintenance(false),
      provision('provide'),
      maintenance(true),
      provision('active'),
      maintenance(false),
    ],
  },
  {
    name: 'protected and retired',
    steps: [
      provision('manage'),
      patch('protect in manageable', [{ op: 'replace', path: '/protected', value: true }]),
      patch('retire', [{ op: 'replace', path: '/retired', value: true }]),
      provision('provide'),
      patch('unretire', [{ op: 'replace', path: '/retired', value: false }]),
      provision('provide'),
      provision('active'),
      patch('protect', [
        { op: 'replace', path: '/protected', value: true },
        { op: 'replace', path: '/protected_reason', value: 'important' },
      ]),
      provision('rebuild'),
      provision('deleted'),
      { name: 'delete protected', method: 'DELETE', path: '/nodes/{node}' },
      patch('unprotect', [{ op: 'replace', path: '/protected', value: false }]),
      { name: 'delete active', method: 'DELETE', path: '/nodes/{node}' },
    ],
  },
  {
    name: 'boot device, validate, vifs, traits',
    steps: [
      {
        name: 'set boot device pxe',
        method: 'PUT',
        path: '/nodes/{node}/management/boot_device',
        body: { boot_device: 'pxe', persistent: true },
      },
      { name: 'get boot device', method: 'GET', path: '/nodes/{node}/management/boot_device' },
      {
        name: 'set boot device disk',
        method: 'PUT',
        path: '/nodes/{node}/management/boot_device',
        body: { boot_device: 'disk' },
      },
      {
        name: 'supported boot devices',
        method: 'GET',
        path: '/nodes/{node}/management/boot_device/supported',
      },
      { name: 'validate', method: 'GET', path: '/nodes/{node}/validate' },
      { name: 'attach vif', method: 'POST', path: '/nodes/{node}/vifs', body: { id: 'vif-1' } },
      { name: 'list vifs', method: 'GET', path: '/nodes/{node}/vifs' },
      { name: 'detach vif', method: 'DELETE', path: '/nodes/{node}/vifs/vif-1' },
      { name: 'add trait', method: 'PUT', path: '/nodes/{node}/traits/CUSTOM_A' },
      {
        name: 'replace traits',
        method: 'PUT',
        path: '/nodes/{node}/traits',
        body: { traits: ['CUSTOM_B', 'CUSTOM_C'] },
      },
      { name: 'remove trait', method: 'DELETE', path: '/nodes/{node}/traits/CUSTOM_B' },
      { name: 'remove missing trait', method: 'DELETE', path: '/nodes/{node}/traits/CUSTOM_X' },
      { name: 'remove all traits', method: 'DELETE', path: '/nodes/{node}/traits' },
    ],
  },
  {
    name: 'adopt',
    create: { instance_info: { image_source: 'http://example.com/image.qcow2' } },
    steps: [provision('manage'), provision('adopt'), provision('deleted')],
  },
  {
    name: 'update in states',
    steps: [
      patch('interface in enroll', [{ op: 'replace', path: '/deploy_interface', value: 'fake' }]),
      provision('manage'),
      provision('provide'),
      provision('active'),
      patch('interface in active', [{ op: 'replace', path: '/boot_interface', value: 'fake' }]),
      patch('resource class in active', [
        { op: 'replace', path: '/resource_class', value: 'gold' },
      ]),
      patch('extra in active', [{ op: 'add', path: '/extra/x', value: 1 }]),
      patch('bad interface', [{ op: 'replace', path: '/bios_interface', value: 'bogus' }]),
    ],
  },
];
