/**
 * `auth_strategy = http_basic` (real-ironic-agent.test.ts, both services with the same
 * htpasswd file): ironic-lib's refusals (no header, a wrong password, an unknown user, a
 * header or token it cannot parse, another type), users served, the public routes open.
 */
import type { Scenario } from './index.ts';

const V = '1.82';
const MISSING = '5e1d0c3a-7a2b-4c1d-9e0f-00000000ad05';
const get = (path: string) => ({ path, version: V });

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

/** The users of both services' htpasswd file under `auth_strategy = http_basic`. */
export const HTTP_BASIC_USERS = [
  // alice:secret and bob:other, as Python's bcrypt wrote them.
  'alice:$2b$04$fKMfsmDXvRD7ORhtiqLAoeLcVaavKNkr9FDtAsBGLNCKGrT6DMGeG',
  'bob:$2a$05$sdzLtfZu0R2wGZWe/GV0H.k98Q3nu6BzwgGhp5/UY8hjvjTpAKH.O',
];
export const HTTP_BASIC_ALICE = basic('alice:secret');

/** `auth_strategy = http_basic`: ironic-lib's refusals, users served, public routes open. */
export const HTTP_BASIC_SCENARIO: Scenario = {
  title: 'http_basic: refusals, users, the public routes',
  steps: [
    get('/v1/nodes'),
    { path: '/v1/nodes', version: V, headers: { Authorization: HTTP_BASIC_ALICE } },
    {
      path: '/v1/nodes?limit=1',
      headers: { Authorization: `basic ${Buffer.from('bob:other').toString('base64')}` },
    },
    ...[
      basic('alice:wrong'),
      basic('carol:secret'),
      'Basic !!!',
      basic('nocolon'),
      'Bearer x',
      'Basic',
      '',
    ].map((authorization) => ({
      path: '/v1/chassis',
      version: V,
      headers: { Authorization: authorization },
    })),
    { method: 'POST', path: '/v1/nodes', version: V, body: { driver: 'fake-hardware' } },
    { path: '/v1', version: V },
    get('/v1/lookup?addresses=zz'),
    {
      method: 'POST',
      path: `/v1/heartbeat/${MISSING}`,
      version: V,
      body: { callback_url: 'http://192.0.2.10:9999', agent_token: 'x' },
    },
  ],
};
