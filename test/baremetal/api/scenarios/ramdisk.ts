/**
 * The ramdisk agent's endpoints (real-ironic-agent.test.ts): the /v1 links from 1.22; lookups
 * refused (no address nor UUID, bad arguments, unknown nodes, below 1.22, a node in a state no
 * ramdisk runs in, a bad `fast_track`); a fast-track node found by its MAC address or UUID,
 * its token handed out once at 1.62 and `******` after, and shown as stored below 1.62;
 * heartbeats refused (no callback URL, no or a wrong token, no agent version, fields of later
 * versions, a bad status) and accepted (202). Both services run with the real defaults
 * (`restrict_lookup` on, no fast track): the node asks for fast track in its driver_info.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';
import { get, post } from './requests.ts';

const V = '1.82';
const FAST = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad01';
const SLOW = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad02';
const ODD = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad03';
const PORT = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad04';
const MISSING = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad05';
const MAC = '52:54:00:ad:00:01';

const lookup = (query: string, version = V) => get(`/v1/lookup${query}`, version);
const beat = (node: string, body: Record<string, unknown>, version = V) =>
  post(`/v1/heartbeat/${node}`, body, version);
const agent = { callback_url: 'http://192.0.2.10:9999', agent_version: '9.4.0' };

export const RAMDISK_SCENARIOS: readonly Scenario[] = [
  {
    title: 'ramdisk: /v1 links lookup and heartbeat from 1.22',
    steps: ['1.21', '1.22', '1.82'].map((version) => ({
      path: '/v1',
      version,
    })),
  },
  {
    title: 'ramdisk: lookups refused',
    steps: [
      lookup(''),
      lookup('?addresses=zz,52-54'),
      lookup('?node_uuid=abc'),
      lookup('?node_uuid=abc', '1.21'),
      lookup(`?node_uuid=${MISSING}`),
      lookup(`?node_uuid=${MISSING}`, '1.21'),
      lookup(`?addresses=${MAC}`),
      lookup('?other=1'),
      lookup(`?node_uuid=${MISSING}&node_uuid=${MISSING}`),
      post('/v1/lookup', {}),
      get('/v1/lookup/x'),
    ],
  },
  {
    title: 'ramdisk: a fast-track node found, its token handed out once',
    steps: [
      post('/v1/nodes', {
        uuid: FAST,
        name: 'agent-fast',
        driver: 'fake-hardware',
        driver_info: { fast_track: true },
        properties: { cpus: 2 },
        instance_info: { configdrive: 'cd', image_url: 'http://img', image_source: 'x' },
      }),
      post('/v1/nodes', { uuid: SLOW, name: 'agent-slow', driver: 'fake-hardware' }),
      post('/v1/nodes', {
        uuid: ODD,
        name: 'agent-odd',
        driver: 'fake-hardware',
        driver_info: { fast_track: 'maybe' },
      }),
      post('/v1/ports', { uuid: PORT, node_uuid: FAST, address: MAC }),
      lookup(`?node_uuid=${SLOW}`),
      lookup(`?node_uuid=${ODD}`),
      lookup(`?node_uuid=${FAST}`, '1.22'),
      lookup(`?node_uuid=${FAST}`, '1.61'),
      lookup(`?addresses=${MAC.toUpperCase()},zz`),
      lookup(`?node_uuid=${FAST}`),
      lookup(`?addresses=${MAC}&node_uuid=${FAST}`, '1.62'),
      lookup(`?node_uuid=${FAST}`, '1.61'),
      get(`/v1/nodes/${FAST}?fields=driver_internal_info`),
    ],
  },
  {
    title: 'ramdisk: heartbeats refused and accepted',
    steps: [
      lookup(`?node_uuid=${FAST}`),
      beat(FAST, {}),
      beat(FAST, { callback_url: 'http://x' }),
      beat(FAST, { ...agent, agent_token: 'wrong' }),
      beat(SLOW, { ...agent, agent_token: 'any' }),
      beat(FAST, { callback_url: 'http://x', agent_token: 'wrong' }),
      beat(FAST, { ...agent, agent_token: 'x' }, '1.35'),
      beat(FAST, { ...agent, agent_token: 'x', agent_status: 'start' }, '1.71'),
      beat(FAST, { ...agent, agent_token: 'x', agent_verify_ca: 'pem' }, '1.67'),
      beat(FAST, { ...agent, agent_token: 'x', agent_status: 'bogus' }),
      beat(FAST, { ...agent, agent_token: 'x', extra: 1 }),
      beat(FAST, { ...agent, agent_token: 'x' }, '1.21'),
      beat(MISSING, { ...agent, agent_token: 'x' }),
      beat('bad%20name', { ...agent, agent_token: 'x' }),
      post('/v1/heartbeat', agent),
      get(`/v1/heartbeat/${FAST}`),
      // pecan binds the segments after the node to the arguments in order.
      post(`/v1/heartbeat/${FAST}/cb`, {}),
      post(`/v1/heartbeat/agent-fast/cb/9.0/tok`, {}),
      post(`/v1/heartbeat/${FAST}/`, { callback_url: 'x' }),
      post(`/v1/heartbeat/agent-fast.json`, { ...agent }),
      {
        method: 'POST',
        path: `/v1/heartbeat/${FAST}?callback_url=x&agent_version=1&agent_token=t`,
        version: V,
      },
      post(`/v1/heartbeat/${FAST}`, [1]),
      post(`/v1/heartbeat/${FAST}`, { callback_url: 5 }),
      {
        ...post(`/v1/heartbeat/${FAST}/cb`, { callback_url: 'x' }),
        realBug: "HeartbeatController.post() got multiple values for argument 'callback_url'",
      },
      {
        ...post(`/v1/heartbeat/${FAST}/a/b/c/d/e/f/g`, {}),
        realBug:
          'HeartbeatController.post() takes from 3 to 8 positional arguments but 9 were given',
      },
      lookup('/?node_uuid=zz'),
    ],
  },
];

const TOKEN_NODE = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad06';
const provision = (node: string, target: string): Exchange => ({
  method: 'PUT',
  path: `/v1/nodes/${node}/states/provision`,
  version: V,
  body: { target },
  settle: node,
});

/**
 * The token is handed out by the first lookup at 1.62 or later: a scenario of its own, sent
 * after the others, so that `{token-1}` names it on both sides.
 */
export const RAMDISK_TOKEN_SCENARIO: Scenario = {
  title: 'ramdisk: the token handed out, heartbeats with it accepted',
  steps: [
    post('/v1/nodes', {
      uuid: '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad06',
      name: 'agent-token',
      driver: 'fake-hardware',
      driver_info: { fast_track: 'yes' },
    }),
    lookup('?node_uuid=5e1d0c3a-7a2b-4c1d-9e0f-00000000ad06'),
    lookup('?node_uuid=5e1d0c3a-7a2b-4c1d-9e0f-00000000ad06', '1.61'),
    beat('agent-token', { ...agent, agent_token: '{token-1}' }),
    beat('{uuid-1}', { ...agent, agent_token: '{token-1}', agent_version: '' }),
    beat(
      '{uuid-1}',
      { ...agent, agent_token: '{token-1}', agent_status: 'end', agent_status_message: 'done' },
      '1.72',
    ),
    beat('{uuid-1}', { callback_url: 'http://x', agent_token: '{token-1}', agent_status: 'start' }),
    beat('{uuid-1}', { ...agent, agent_token: '{token-1}', agent_verify_ca: 'pem' }, '1.68'),
    beat('{uuid-1}', { ...agent, agent_token: '{token-1}' }, '1.36'),
    beat('{uuid-1}', { callback_url: 'http://x', agent_token: '{token-1}' }, '1.22'),
    lookup('?node_uuid=5e1d0c3a-7a2b-4c1d-9e0f-00000000ad06'),
    get('/v1/nodes/5e1d0c3a-7a2b-4c1d-9e0f-00000000ad06?fields=driver_internal_info,last_error'),
    // Fast track keeps the token through cleaning (fast_track_able); without it, it is wiped.
    provision(TOKEN_NODE, 'manage'),
    provision(TOKEN_NODE, 'provide'),
    get(`/v1/nodes/${TOKEN_NODE}?fields=provision_state,driver_internal_info,last_error`),
    lookup(`?node_uuid=${TOKEN_NODE}`),
    {
      method: 'PATCH',
      path: `/v1/nodes/${TOKEN_NODE}`,
      version: V,
      body: [{ op: 'replace', path: '/driver_info/fast_track', value: false }],
    },
    provision(TOKEN_NODE, 'manage'),
    provision(TOKEN_NODE, 'provide'),
    get(`/v1/nodes/${TOKEN_NODE}?fields=provision_state,driver_internal_info`),
  ],
};
