/**
 * The store-heavy side of the lists, on SQLite, PostgreSQL and MariaDB: nodes made through the
 * API (and so through the conductor), then walked page by page through the `next` links the
 * API builds, in both directions and by another key; every filter the node list takes; fields;
 * the port and port group lists by node and by address. (The bodies' exact shape per version
 * is held to the real Ironic in real-ironic-api.test.ts.)
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { type BatonApi, forEachApiBackend } from './support/baton-api.ts';

const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': 'application/json' };

interface NodeBody {
  uuid: string;
  name: string;
  [field: string]: unknown;
}

forEachApiBackend('node, port and port group lists', (apiOf) => {
  let api: BatonApi;
  const made: NodeBody[] = [];
  let chassis: string;

  const call = async (method: string, url: string, body?: unknown) => {
    const response = await api.request({
      method: method as 'GET',
      url,
      headers: HEADERS,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.body === '' ? null : response.json() };
  };
  const get = async (url: string) => {
    const answer = await call('GET', url);
    assert.equal(answer.status, 200, `${url}: ${JSON.stringify(answer.body)}`);
    return answer.body as Record<string, unknown>;
  };

  before(async () => {
    api = apiOf();
    chassis = ((await call('POST', '/v1/chassis', { description: 'rack' })).body as NodeBody).uuid;
    const specs = [
      { name: 'n-a', resource_class: 'gold', description: 'big 100% box' },
      { name: 'n-b', resource_class: 'gold', chassis_uuid: chassis },
      { name: 'n-c', resource_class: 'silver', description: 'small box' },
      { name: 'n-d', instance_uuid: '0be26c0b-03f2-4d2e-ae87-c02d7f33c1d4', chassis_uuid: chassis },
      { name: 'n-e', description: 'big_box' },
      { name: 'n-f', lessee: 'tenant-2' },
      { name: 'n-g' },
    ];
    for (const spec of specs) {
      const created = await call('POST', '/v1/nodes', { driver: 'fake-hardware', ...spec });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      made.push(created.body as NodeBody);
    }
    const patch = (name: string, ops: unknown[]) => call('PATCH', `/v1/nodes/${name}`, ops);
    assert.equal(
      (await patch('n-c', [{ op: 'add', path: '/owner', value: 'tenant-1' }])).status,
      200,
    );
    assert.equal(
      (await patch('n-e', [{ op: 'replace', path: '/maintenance', value: true }])).status,
      200,
    );
    const manage = await call('PUT', '/v1/nodes/n-g/states/provision', { target: 'manage' });
    assert.equal(manage.status, 202);
    for (let i = 0; i < 100; i++) {
      const state = (await get('/v1/nodes/n-g?fields=provision_state')).provision_state;
      if (state === 'manageable') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const node = made[0] as NodeBody;
    const group = await call('POST', '/v1/portgroups', {
      node_uuid: node.uuid,
      name: 'g-1',
      address: '52:54:00:00:10:01',
    });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    for (const [i, owner] of [made[0], made[0], made[1]].entries()) {
      const port = await call('POST', '/v1/ports', {
        node_uuid: (owner as NodeBody).uuid,
        address: `52:54:00:00:11:0${i}`,
        ...(i === 0 ? { portgroup_uuid: (group.body as NodeBody).uuid } : {}),
      });
      assert.equal(port.status, 201, JSON.stringify(port.body));
    }
  });

  /** Follows `next` from `path` to the end; the pages' items, in order. */
  async function walk(path: string, key: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let next: string | undefined = path;
    let pages = 0;
    while (next !== undefined) {
      const page = await get(next);
      items.push(...(page[key] as Record<string, unknown>[]));
      const link = page.next as string | undefined;
      next = link === undefined ? undefined : link.replace(/^http:\/\/[^/]+/, '');
      pages++;
      assert.ok(pages < 20, 'the pages end');
    }
    return items;
  }

  it('pages through every node, by id both ways and by name, as the next links say', async () => {
    const byId = await walk('/v1/nodes?limit=2', 'nodes');
    assert.deepEqual(
      byId.map((node) => node.name),
      made.map((node) => node.name),
    );
    const page = await get('/v1/nodes?limit=2');
    assert.match(
      String(page.next),
      /\/v1\/nodes\?sort_key=id&sort_dir=asc&fields=instance_uuid,maintenance,power_state,provision_state,uuid,name&limit=2&marker=[0-9a-f-]{36}$/,
    );
    const down = await walk('/v1/nodes/detail?limit=3&sort_dir=desc', 'nodes');
    assert.deepEqual(
      down.map((node) => node.name),
      made.map((node) => node.name).reverse(),
    );
    assert.ok(
      down.every((node) => typeof node.driver === 'string'),
      'detail bodies',
    );
    const byName = await walk('/v1/nodes?limit=4&sort_key=name&sort_dir=desc', 'nodes');
    assert.deepEqual(
      byName.map((node) => node.name),
      made
        .map((node) => node.name)
        .sort()
        .reverse(),
    );
    const exact = await get(`/v1/nodes?limit=${made.length}`);
    assert.ok(typeof exact.next === 'string', 'a full page has a next link, as the real one');
    assert.deepEqual((await get(String(exact.next).replace(/^http:\/\/[^/]+/, ''))).nodes, []);
  });

  it('filters as the real node list filters', async () => {
    const names = async (query: string) =>
      ((await get(`/v1/nodes?${query}`)).nodes as NodeBody[]).map((node) => node.name).sort();
    assert.deepEqual(await names('resource_class=gold'), ['n-a', 'n-b']);
    assert.deepEqual(await names(`chassis_uuid=${chassis}`), ['n-b', 'n-d']);
    assert.deepEqual(await names('associated=true'), ['n-d']);
    assert.deepEqual(await names('associated=false&resource_class=silver'), ['n-c']);
    assert.deepEqual(await names('maintenance=true'), ['n-e']);
    assert.equal((await names('maintenance=false')).length, made.length - 1);
    assert.deepEqual(await names('provision_state=manageable'), ['n-g']);
    assert.deepEqual(await names('owner=tenant-1'), ['n-c']);
    assert.deepEqual(await names('lessee=tenant-2'), ['n-f']);
    assert.deepEqual(await names('project=tenant-1'), ['n-c']);
    assert.deepEqual(await names('project=tenant-2'), ['n-f']);
    assert.deepEqual(await names('driver=fake-hardware&limit=2'), ['n-a', 'n-b']);
    assert.deepEqual(await names('conductor_group='), made.map((node) => node.name).sort());
    assert.deepEqual(await names('conductor=127.0.0.1&limit=3'), ['n-a', 'n-b', 'n-c']);
    assert.deepEqual(await names('conductor=nowhere'), []);
    assert.deepEqual(await names('fault=power%20failure'), []);
    // LIKE, as the real one: `%` and `_` match as wildcards.
    assert.deepEqual(await names('description_contains=big'), ['n-a', 'n-e']);
    assert.deepEqual(await names('description_contains=big_'), ['n-a', 'n-e']);
    assert.deepEqual(await names('description_contains=0%25%20b'), ['n-a']);
    const instance = await get(
      '/v1/nodes?instance_uuid=0be26c0b-03f2-4d2e-ae87-c02d7f33c1d4&limit=1',
    );
    assert.deepEqual(
      (instance.nodes as NodeBody[]).map((node) => node.name),
      ['n-d'],
    );
    assert.equal(instance.next, undefined, 'an instance UUID is unique: no next page');
    const underChassis = await get(`/v1/chassis/${chassis}/nodes?fields=name`);
    assert.deepEqual(
      (underChassis.nodes as NodeBody[]).map((node) => node.name),
      ['n-b', 'n-d'],
    );
  });

  it('reads only the fields asked for', async () => {
    const body = await get('/v1/nodes?fields=name,resource_class,chassis_uuid&limit=2');
    assert.deepEqual(body.nodes, [
      {
        name: 'n-a',
        resource_class: 'gold',
        chassis_uuid: null,
        links: (body.nodes as NodeBody[])[0]?.links,
      },
      {
        name: 'n-b',
        resource_class: 'gold',
        chassis_uuid: chassis,
        links: (body.nodes as NodeBody[])[1]?.links,
      },
    ]);
    assert.match(String(body.next), /&fields=name,resource_class,chassis_uuid&limit=2&/);
  });

  it('lists ports and port groups by node, port group and address, in pages', async () => {
    const first = made[0] as NodeBody;
    const ports = await walk('/v1/ports?limit=1', 'ports');
    assert.deepEqual(
      ports.map((port) => port.address),
      ['52:54:00:00:11:00', '52:54:00:00:11:01', '52:54:00:00:11:02'],
    );
    const ofNode = (await get(`/v1/nodes/${first.uuid}/ports`)).ports as { address: string }[];
    assert.deepEqual(
      ofNode.map((port) => port.address),
      ['52:54:00:00:11:00', '52:54:00:00:11:01'],
    );
    const byName = (await get('/v1/ports?node=n-b')).ports as { address: string }[];
    assert.deepEqual(
      byName.map((port) => port.address),
      ['52:54:00:00:11:02'],
    );
    const ofGroup = (await get('/v1/portgroups/g-1/ports?fields=address')).ports as unknown[];
    assert.equal(ofGroup.length, 1);
    const byAddress = (await get('/v1/ports?address=52:54:00:00:11:01')).ports as unknown[];
    assert.equal(byAddress.length, 1);
    const groups = (await get(`/v1/nodes/${first.uuid}/portgroups?detail=true`)).portgroups as {
      name: string;
    }[];
    assert.deepEqual(
      groups.map((group) => group.name),
      ['g-1'],
    );
    assert.deepEqual((await get('/v1/portgroups?node=n-b')).portgroups, []);
  });
});
