/**
 * The bare metal API fuzzed (issue 16 §1): every route, several microversions, bodies near
 * the real shapes and far from them, on SQLite, PostgreSQL and MariaDB, with a conductor
 * behind it. No answer may be a 5xx or take more than 10 s; every error is Ironic's
 * `{"error_message": "<JSON>"}` (a fault with the request id header, or WebOb's error); after
 * the run no node is left locked once the conductor is done. Counted: 1,000 requests per
 * database, all of them sent however long they take.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import Fastify from 'fastify';
import { registerRoutes } from '../../../src/baremetal/api/routes.ts';
import {
  declaredRoutes,
  type FuzzAnswer,
  type FuzzRequest,
  type FuzzRoute,
  fuzzHttp,
} from '../../support/http-fuzz.ts';
import { forEachApiBackend } from '../api/support/baton-api.ts';

const FUZZ_REQUESTS = 1_000;

const BODIES: unknown[] = [
  { driver: 'fake-hardware', name: 'fuzzed', properties: { cpus: 4 }, extra: { a: 1 } },
  [{ op: 'replace', path: '/extra/k', value: 'v' }],
  [{ op: 'add', path: '/properties/memory_mb', value: 1024 }],
  [{ op: 'remove', path: '/name' }],
  { target: 'manage' },
  { target: 'provide' },
  { target: 'clean', clean_steps: [{ interface: 'deploy', step: 'erase_devices' }] },
  { target: 'power on' },
  { traits: ['CUSTOM_FUZZ', 'HW_CPU_X86_VMX'] },
  { node_uuid: '00000000-0000-0000-0000-000000000000', address: '52:54:00:00:00:02' },
  { node_uuid: '00000000-0000-0000-0000-000000000000', name: 'pg-fuzz' },
  { description: 'chassis' },
  { boot_device: 'pxe', persistent: false },
  { id: 'vif-fuzz' },
  { reason: 'fuzz' },
];

const QUERY_KEYS = [
  'limit',
  'marker',
  'sort_key',
  'sort_dir',
  'fields',
  'detail',
  'provision_state',
  'maintenance',
  'associated',
  'driver',
  'resource_class',
  'conductor_group',
  'node',
  'address',
  'owner',
  'lessee',
];

function checkIronicAnswer(answer: FuzzAnswer, request: FuzzRequest): void {
  const where = `${request.method} ${request.url}`;
  if (answer.status < 400 || request.method === 'HEAD' || request.url.startsWith('/healthcheck'))
    return;
  assert.ok(answer.body.length < 64 * 1024, `${where}: an error of ${answer.body.length} bytes`);
  const outer = JSON.parse(answer.body) as { error_message?: unknown };
  assert.equal(typeof outer.error_message, 'string', `${where}: ${answer.body}`);
  const inner = JSON.parse(outer.error_message as string) as Record<string, unknown>;
  if ('faultcode' in inner) {
    assert.equal(inner.faultcode, 'Client', where);
    assert.equal(typeof inner.faultstring, 'string', where);
    // Faults carry the request id header; WebOb's errors drop it, as the real service's do.
    assert.match(String(answer.headers['openstack-request-id']), /^req-/, where);
  } else {
    assert.equal(inner.code, answer.status, where);
    assert.equal(typeof inner.title, 'string', where);
  }
}

forEachApiBackend('bare metal fuzz', (api) => {
  let routes: FuzzRoute[];
  const fill: Record<string, string> = {};
  const headers = { 'x-openstack-ironic-api-version': '1.80', 'content-type': 'application/json' };

  before(async () => {
    routes = await declaredRoutes(() => Fastify({ exposeHeadRoutes: false }), registerRoutes);
    const post = async (url: string, body: unknown) => {
      const response = await api().request({
        method: 'POST',
        url,
        headers,
        payload: JSON.stringify(body),
      });
      assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
      return JSON.parse(response.body) as { uuid: string };
    };
    const node = await post('/v1/nodes', { driver: 'fake-hardware', name: 'fuzz-node' });
    const chassis = await post('/v1/chassis', {});
    const group = await post('/v1/portgroups', { node_uuid: node.uuid, name: 'fuzz-pg' });
    const port = await post('/v1/ports', { node_uuid: node.uuid, address: '52:54:00:00:00:99' });
    Object.assign(fill, {
      node: node.uuid,
      node_ident: node.uuid,
      chassis_uuid: chassis.uuid,
      portgroup: group.uuid,
      port: port.uuid,
      driver_name: 'fake-hardware',
      hostname: '127.0.0.1',
      trait: 'CUSTOM_FUZZ',
      vif: 'vif-1',
    });
  });

  it(`answers ${FUZZ_REQUESTS} fuzzed requests without a 5xx, in Ironic format`, async () => {
    const report = await fuzzHttp({
      routes,
      fill: () => fill,
      versionHeader: 'x-openstack-ironic-api-version',
      versions: ['1.1', '1.31', '1.46', '1.65', '1.78', '1.80', 'latest', '1.99', 'x'],
      queryKeys: QUERY_KEYS,
      bodies: BODIES,
      baseHeaders: { 'x-openstack-ironic-api-version': '1.80' },
      headerSets: [{ accept: 'text/html' }, { 'x-openstack-ironic-api-version': '1.1' }],
      send: async (request) => {
        const response = await api().request({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.body === undefined ? {} : { payload: request.body }),
        });
        return { status: response.statusCode, headers: response.headers, body: response.body };
      },
      checkAnswer: checkIronicAnswer,
      seed: 16_002,
      numRuns: FUZZ_REQUESTS,
    });
    console.log(
      `bare metal fuzz: ${report.requests} requests in ${report.elapsedMs} ms, 5xx: ${report.serverErrors}, by status ${JSON.stringify(report.byStatus)}`,
    );
    assert.equal(report.requests, FUZZ_REQUESTS);
    // Nothing stays locked: every reservation is released once the conductor is done.
    const deadline = Date.now() + 15_000;
    let locked: string[] = [];
    do {
      const rows = await api()
        .db.kysely.selectFrom('nodes')
        .select(['uuid', 'reservation'])
        .execute();
      locked = rows.filter((row) => row.reservation !== null).map((row) => String(row.uuid));
      if (locked.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while (Date.now() < deadline);
    assert.deepEqual(locked, [], 'nodes left locked');
  });
});
