/**
 * `[DEFAULT] default_<kind>_interface` seen through the API (issue 24): with console `fake`
 * and `no-console`, storage `fake` and `noop` enabled, and the defaults `no-console` and
 * `noop`, a new fake-hardware node gets the configured defaults (not the hardware type's
 * first choice, `fake`), validates accordingly, and a node naming its own keeps them. Sent
 * to a real Ironic and a Baton configured alike (real-ironic-default-interfaces.test.ts).
 */
import type { Scenario } from './index.ts';

const V = '1.82';
const INTERFACES = [
  'bios',
  'boot',
  'console',
  'deploy',
  'inspect',
  'management',
  'network',
  'power',
  'raid',
  'rescue',
  'storage',
  'vendor',
].map((kind) => `${kind}_interface`);
const fields = `fields=${INTERFACES.join(',')}`;

export const DEFAULT_INTERFACE_SCENARIO: Scenario = {
  title: 'default_<kind>_interface: new nodes, validation, driver show, explicit choices',
  steps: [
    {
      method: 'POST',
      path: '/v1/nodes',
      version: V,
      body: { driver: 'fake-hardware', name: 'd1' },
    },
    { path: `/v1/nodes/d1?${fields}`, version: V },
    { path: '/v1/nodes/d1/validate', version: V },
    { path: '/v1/drivers/fake-hardware', version: V },
    { path: '/v1/drivers?detail=true', version: V },
    { path: '/v1/drivers/fake-hardware/properties', version: V },
    {
      method: 'POST',
      path: '/v1/nodes',
      version: V,
      body: {
        driver: 'fake-hardware',
        name: 'd2',
        console_interface: 'fake',
        storage_interface: 'fake',
      },
    },
    { path: `/v1/nodes/d2?${fields}`, version: V },
    { path: '/v1/nodes/d2/validate', version: V },
    {
      method: 'PATCH',
      path: '/v1/nodes/d2',
      version: V,
      body: [
        { op: 'replace', path: '/console_interface', value: 'no-console' },
        { op: 'remove', path: '/storage_interface' },
      ],
    },
    { path: `/v1/nodes/d2?${fields}`, version: V },
    {
      method: 'PATCH',
      path: '/v1/nodes/d2',
      version: V,
      body: [{ op: 'replace', path: '/storage_interface', value: 'cinder' }],
    },
    {
      method: 'POST',
      path: '/v1/nodes',
      version: V,
      body: { driver: 'fake-hardware', name: 'd3', console_interface: 'ipmitool-socat' },
    },
    { method: 'DELETE', path: '/v1/nodes/d1', version: V },
    { method: 'DELETE', path: '/v1/nodes/d2', version: V },
  ],
};
