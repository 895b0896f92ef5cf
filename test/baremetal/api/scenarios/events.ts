/**
 * POST /v1/events (real-ironic-agent.test.ts): the /v1 link, valid network events, the real validators'
 * 400s (the events schema, each network event's schema, UUIDs, MAC address), the body checked
 * before the 1.54 gate, unexpected query parameters, other methods and sub-paths.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';

const PORT = '1a2b3c4d-0000-4000-8000-000000000001';
const EVENT = {
  event: 'network.bind_port',
  port_id: PORT,
  mac_address: '52:54:00:AA:BB:CC',
  status: 'ACTIVE',
  device_id: '1a2b3c4d-0000-4000-8000-000000000002',
  'binding:host_id': '1a2b3c4d-0000-4000-8000-000000000003',
  'binding:vnic_type': 'baremetal',
};

const post = (body: unknown, version = '1.82', path = '/v1/events'): Exchange => ({
  method: 'POST',
  path,
  version,
  body,
});
const events = (...items: unknown[]) => post({ events: items });

export const EVENT_SCENARIOS: readonly Scenario[] = [
  {
    title: 'events: /v1 links them from 1.54',
    steps: ['1.53', '1.54', '1.82'].map((version) => ({
      path: '/v1',
      version,
    })),
  },
  {
    title: 'events: accepted network events',
    steps: [
      events(EVENT),
      events(
        { ...EVENT, event: 'network.unbind_port' },
        { ...EVENT, event: 'network.delete_port' },
      ),
      events({
        event: 'network.bind_port',
        port_id: PORT,
        mac_address: '52:54:00:aa:bb:cc',
        status: 'x',
      }),
      events({ ...EVENT, device_id: null, 'binding:host_id': null, 'binding:vnic_type': null }),
      post({ events: [EVENT] }, '1.54'),
    ],
  },
  {
    title: 'events: the validators refuse, with their texts',
    steps: [
      post({}),
      post({ events: [] }),
      post({ events: 'x' }),
      post({ events: [EVENT], other: 1 }),
      post([EVENT]),
      events({ ...EVENT, event: 'network.other' }),
      events({ port_id: PORT }),
      events('x'),
      events({ event: 'network.bind_port' }),
      events({ ...EVENT, extra: 1 }),
      events({ ...EVENT, status: 1 }),
      events({ ...EVENT, device_id: 5 }),
      events({ ...EVENT, port_id: 'not-a-uuid' }),
      events({ ...EVENT, mac_address: 'zz' }),
      events({ ...EVENT, device_id: 'dev' }),
      events({ ...EVENT, 'binding:host_id': 'compute-1' }),
      events(EVENT, { ...EVENT, mac_address: '52-54' }),
    ],
  },
  {
    title: 'events: below 1.54, other methods, query parameters, sub-paths',
    steps: [
      post({}, '1.53'),
      post({ events: [EVENT] }, '1.53'),
      post({ events: [EVENT] }, '1.1'),
      post({ events: [EVENT] }, '1.82', '/v1/events?x=1'),
      { path: '/v1/events', version: '1.82' },
      { path: '/v1/events', version: '1.53' },
      { method: 'PUT', path: '/v1/events', version: '1.82', body: { events: [EVENT] } },
      { method: 'DELETE', path: '/v1/events', version: '1.82' },
      { method: 'PUT', path: '/v1/events', version: '1.53', body: { events: [EVENT] } },
      { method: 'DELETE', path: '/v1/events', version: '1.53' },
      { method: 'PATCH', path: '/v1/events', version: '1.53', body: [] },
      { method: 'PATCH', path: '/v1/events', version: '1.82', body: [] },
      post({ events: [EVENT] }, '1.53', '/v1/events/x'),
      { path: '/v1/events/x', version: '1.82' },
      { path: '/v1/events/x', version: '1.53' },
      { method: 'PUT', path: '/v1/events/x', version: '1.53', body: {} },
      { method: 'DELETE', path: '/v1/events/x', version: '1.82' },
      post({}, '1.82', '/v1/events/x/y'),
      post({ events: [EVENT] }, '1.82', '/v1/events/1'),
      post({ events: [EVENT] }, '1.82', '/v1/events/x?a=1'),
      post({ events: [EVENT] }, '1.82', '/v1/events/x'),
      { method: 'POST', path: '/v1/events', version: '1.82', rawBody: '' },
    ],
  },
];
