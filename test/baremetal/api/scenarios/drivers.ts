import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';

const every = (path: string): Exchange[] =>
  Array.from({ length: 80 }, (_, i) => ({ path, version: `1.${i + 1}` }));

export const DRIVER_SCENARIOS: readonly Scenario[] = [
  {
    title: 'drivers: list, detail, show, properties at every version',
    steps: [
      ...every('/v1/drivers'),
      ...every('/v1/drivers?detail=true'),
      ...every('/v1/drivers/fake-hardware'),
      ...every('/v1/drivers/fake-hardware/properties'),
      ...every('/v1/drivers/fake-hardware/raid/logical_disk_properties'),
    ],
  },
  {
    title: 'drivers: filters, fields and refusals',
    steps: [
      { path: '/v1/drivers?detail=false', version: '1.80' },
      { path: '/v1/drivers?type=dynamic', version: '1.29' },
      { path: '/v1/drivers?type=dynamic', version: '1.30' },
      { path: '/v1/drivers?type=classic', version: '1.30' },
      { path: '/v1/drivers?type=bogus', version: '1.30' },
      { path: '/v1/drivers?detail=bogus', version: '1.30' },
      { path: '/v1/drivers?detail=true', version: '1.29' },
      { path: '/v1/drivers?fields=name,hosts', version: '1.76' },
      { path: '/v1/drivers?fields=name,hosts', version: '1.77' },
      { path: '/v1/drivers?detail=true&fields=name,default_power_interface', version: '1.77' },
      { path: '/v1/drivers/fake-hardware?fields=name,enabled_power_interfaces', version: '1.76' },
      { path: '/v1/drivers/fake-hardware?fields=name,enabled_power_interfaces', version: '1.77' },
      { path: '/v1/drivers/fake-hardware?fields=bogus', version: '1.77' },
      { path: '/v1/drivers?bogus=1', version: '1.80' },
      { path: '/v1/drivers/ipmi', version: '1.1' },
      { path: '/v1/drivers/ipmi', version: '1.80' },
      { path: '/v1/drivers/ipmi/properties', version: '1.80' },
      { path: '/v1/drivers/ipmi/raid/logical_disk_properties', version: '1.80' },
      { method: 'POST', path: '/v1/drivers', version: '1.80' },
      { path: '/v1/drivers/', version: '1.80' },
    ],
  },
];

export const CONDUCTOR_SCENARIOS: readonly Scenario[] = [
  {
    title: 'conductors: list, detail, show, fields, pages and refusals',
    steps: [
      { path: '/v1/conductors', version: '1.48' },
      { path: '/v1/conductors/127.0.0.1', version: '1.48' },
      { path: '/v1/conductors', version: '1.49' },
      { path: '/v1/conductors', version: '1.80' },
      { path: '/v1/conductors?detail=true', version: '1.80' },
      { path: '/v1/conductors?fields=hostname,drivers', version: '1.80' },
      { path: '/v1/conductors?fields=hostname,bogus', version: '1.80' },
      { path: '/v1/conductors?fields=hostname,owner', version: '1.49' },
      { path: '/v1/conductors?limit=1', version: '1.80' },
      { path: '/v1/conductors?limit=1&detail=True', version: '1.80' },
      { path: '/v1/conductors?marker=127.0.0.1', version: '1.80' },
      { path: '/v1/conductors?marker=nowhere', version: '1.80' },
      { path: '/v1/conductors?marker=a%20b', version: '1.80' },
      { path: '/v1/conductors?sort_key=alive', version: '1.80' },
      { path: '/v1/conductors?sort_key=hostname&sort_dir=desc', version: '1.80' },
      { path: '/v1/conductors?sort_key=bogus', version: '1.80' },
      { path: '/v1/conductors/127.0.0.1', version: '1.80' },
      { path: '/v1/conductors/127.0.0.1?fields=alive', version: '1.80' },
      { path: '/v1/conductors/nowhere', version: '1.80' },
      { method: 'DELETE', path: '/v1/conductors/127.0.0.1', version: '1.80' },
    ],
  },
];
