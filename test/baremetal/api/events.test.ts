/**
 * POST /v1/events (1.54) through the API on the three backends, as Ironic 21.4.4's
 * EventsController answers: 204 for valid network events (logged only), the real validators'
 * 400 texts (EVENTS_SCHEMA, the network event schema, UUIDs and MAC address), the body checked
 * before the version (404 below 1.54 for a valid body), and `baremetal:events:post`
 * (admin or service) after both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { type BatonApi, forEachApiBackend } from './support/baton-api.ts';
import { roles, startUnderDefaultPolicy } from './support/personas.ts';

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

async function post(api: BatonApi, payload: unknown, version = '1.54', url = '/v1/events') {
  const answer = await api.request({
    method: 'POST',
    url,
    headers: { 'X-OpenStack-Ironic-API-Version': version, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  return {
    status: answer.statusCode,
    body: answer.body,
    fault: () => JSON.parse(answer.json().error_message).faultstring as string,
  };
}

forEachApiBackend('events', (api) => {
  test('valid network events: 204, no body', async () => {
    for (const event of ['network.bind_port', 'network.unbind_port', 'network.delete_port']) {
      const answer = await post(api(), { events: [{ ...EVENT, event }] });
      assert.equal(answer.status, 204, answer.body);
      assert.equal(answer.body, '');
    }
    // The optional fields may be null or absent.
    const minimal = await post(api(), {
      events: [
        {
          event: 'network.unbind_port',
          port_id: PORT,
          mac_address: '52:54:00:aa:bb:cc',
          status: 'DOWN',
        },
        { ...EVENT, device_id: null, 'binding:host_id': null, 'binding:vnic_type': null },
      ],
    });
    assert.equal(minimal.status, 204, minimal.body);
  });

  test("the body's schema: the real texts", async () => {
    const cases: [unknown, string][] = [
      [{}, "Schema error for evts: 'events' is a required property"],
      [{ events: [] }, 'Schema error for evts: [] is too short'],
      [
        { events: [EVENT], other: 1 },
        "Schema error for evts: Additional properties are not allowed ('other' was unexpected)",
      ],
      [
        { events: [{ ...EVENT, event: 'network.other' }] },
        "Schema error for evts: 'network.other' is not one of ['network.bind_port', " +
          "'network.unbind_port', 'network.delete_port']",
      ],
      [{ events: [{ port_id: PORT }] }, "Schema error for evts: 'event' is a required property"],
      [{ events: 'x' }, "Schema error for evts: 'x' is not of type 'array'"],
      [
        [EVENT],
        "Schema error for evts: [{'event': 'network.bind_port', 'port_id': " +
          "'1a2b3c4d-0000-4000-8000-000000000001', 'mac_address': '52:54:00:AA:BB:CC', " +
          "'status': 'ACTIVE', 'device_id': '1a2b3c4d-0000-4000-8000-000000000002', " +
          "'binding:host_id': '1a2b3c4d-0000-4000-8000-000000000003', " +
          "'binding:vnic_type': 'baremetal'}] is not of type 'object'",
      ],
      // The real one lets a body of null through to a 500; Baton's schema refuses it.
      [null, "Schema error for evts: None is not of type 'object'"],
    ];
    for (const [body, text] of cases) {
      const answer = await post(api(), body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.fault(), text);
    }
  });

  test("a network event's own checks: schema, UUIDs, MAC address", async () => {
    const { status: _status, ...noStatus } = EVENT;
    const cases: [Record<string, unknown>, string][] = [
      [noStatus, "Schema error for evts: 'status' is a required property"],
      [
        { ...EVENT, extra: 1 },
        "Schema error for evts: Additional properties are not allowed ('extra' was unexpected)",
      ],
      [{ ...EVENT, status: 1 }, "Schema error for evts: 1 is not of type 'string'"],
      [{ ...EVENT, device_id: 5 }, "Schema error for evts: 5 is not of type 'string', 'null'"],
      [{ ...EVENT, port_id: 'not-a-uuid' }, 'Expected UUID for port_id: not-a-uuid'],
      [{ ...EVENT, mac_address: 'zz' }, 'Expected valid MAC address for mac_address: zz'],
      [{ ...EVENT, device_id: 'dev' }, 'Expected UUID for device_id: dev'],
      [
        { ...EVENT, 'binding:host_id': 'compute-1' },
        'Expected UUID for binding:host_id: compute-1',
      ],
    ];
    for (const [event, text] of cases) {
      const answer = await post(api(), { events: [event] });
      assert.equal(answer.status, 400, JSON.stringify(event));
      assert.equal(answer.fault(), text);
    }
  });

  test('below 1.54: the body is checked first, then the real 404', async () => {
    const invalid = await post(api(), {}, '1.53');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.fault(), "Schema error for evts: 'events' is a required property");
    const valid = await post(api(), { events: [EVENT] }, '1.53');
    assert.equal(valid.status, 404);
    assert.equal(valid.fault(), 'Resource could not be found.');
  });

  test('query parameters are unexpected; other methods 405 from 1.54, 404 below', async () => {
    const query = await post(api(), { events: [EVENT] }, '1.54', '/v1/events?x=1');
    assert.equal(query.status, 400);
    assert.equal(query.fault(), 'Unexpected arguments: x');
    const get = (version: string) =>
      api().request({
        method: 'GET',
        url: '/v1/events',
        headers: { 'X-OpenStack-Ironic-API-Version': version },
      });
    const refused = await get('1.54');
    assert.equal(refused.statusCode, 405);
    assert.equal(refused.headers.allow, 'POST');
    assert.equal((await get('1.53')).statusCode, 404);
  });

  test("a path below /v1/events: pecan's post() takes its first segment as the body", async () => {
    const below = await post(api(), { events: [EVENT] }, '1.53', '/v1/events/x/y');
    assert.equal(below.status, 400);
    assert.equal(below.fault(), "Schema error for evts: 'x' is not of type 'object'");
  });
});

describe("Ironic's default policy on events: a system admin or rule:is_admin", () => {
  let api: BatonApi;
  before(async () => {
    api = await startUnderDefaultPolicy();
  });
  after(() => api?.close());

  const as = (who: Record<string, string>, payload: unknown, version = '1.54') =>
    api.request({
      method: 'POST',
      url: '/v1/events',
      headers: { ...who, 'x-openstack-ironic-api-version': version },
      payload: payload as object,
    });
  const project = (role: string) => ({
    'x-user-id': `user-${role}`,
    'x-project-id': 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
    'x-project-domain-id': 'default',
    'x-roles': roles(role),
  });

  it('project members and services are refused naming the rule; admins are accepted', async () => {
    for (const role of ['member', 'service']) {
      const refused = await as(project(role), { events: [EVENT] });
      assert.equal(refused.statusCode, 403);
      assert.match(
        refused.body,
        /Access was denied to the following resource: baremetal:events:post/,
      );
    }
    // rule:is_admin (the deprecated rule, enforce_new_defaults off): admin_api, any scope.
    assert.equal((await as(project('admin'), { events: [EVENT] })).statusCode, 204);
    assert.equal(
      (
        await as(
          { 'x-user-id': 'sys', 'openstack-system-scope': 'all', 'x-roles': roles('admin') },
          { events: [EVENT] },
        )
      ).statusCode,
      204,
    );
  });

  it('a refused caller still gets the validation 400 and the 404 first, as the real order', async () => {
    assert.equal((await as(project('member'), {})).statusCode, 400);
    assert.equal((await as(project('member'), { events: [EVENT] }, '1.53')).statusCode, 404);
  });
});
