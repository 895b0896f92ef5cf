/**
 * The bare metal API's OpenAPI documents: valid OpenAPI 3.1 at every microversion, the same
 * routes as the app registers (less the few that only answer errors), the version facts of
 * the reference (traits from 1.37, shards and the `shard` filter from 1.82…), and real answers
 * of the app (on SQLite, with a conductor) matching the documents' schemas, which list the
 * exact node, port and port group fields of each version.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import {
  BAREMETAL_OPENAPI,
  baremetalOpenApi,
} from '../../../src/baremetal/api/openapi-operations.ts';
import { registerRoutes } from '../../../src/baremetal/api/routes.ts';
import { BAREMETAL_VERSIONS } from '../../../src/baremetal/api/versions.ts';
import { Allocation, BIOSSetting, NodeHistory } from '../../../src/baremetal/objects/index.ts';
import { bodyProblem, errorBodyProblem, openApiProblems } from '../../support/openapi-documents.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

/** Routes that only answer errors, as pecan's controllers do: not operations of the API. */
const ERROR_ONLY = [
  'delete /v1/chassis', // "Missing mandatory parameter"
  'patch /v1/chassis',
  'post /v1/chassis/{chassis_uuid}', // the segment bound as the body, then 404
  'delete /v1/nodes',
  'patch /v1/nodes',
  'post /v1/nodes/{node}',
  'get /v1/nodes/{node}/{extra}', // pecan's positional `fields` (docs/baremetal.md)
  'delete /v1/ports',
  'patch /v1/ports',
  'delete /v1/portgroups',
  'patch /v1/portgroups',
  'get /v1/shards/{shard}', // always 404, as the real get_one
  'delete /v1/allocations',
  'patch /v1/allocations',
  'post /v1/allocations/{allocation}',
  'delete /v1/deploy_templates',
  'patch /v1/deploy_templates',
  'post /v1/deploy_templates/{template}',
  'get /v1/events', // 404 below 1.54, 405 from then on, as the real _lookup and router
  'put /v1/events',
  'delete /v1/events',
  'patch /v1/events',
  'post /v1/events/*', // the first segment bound as the body: the schema's 400
  'get /v1/lookup/*', // WebOb's 405: the controller has get_all only
  'post /v1/heartbeat', // no node: the controller's missing argument
  'post /v1/heartbeat/{node_ident}/*', // pecan's positional arguments (docs/baremetal.md)
  // Missing UUID, and anything but the lists under a node ("Operation not permitted.").
  ...['connectors', 'targets'].flatMap((collection) => [
    `delete /v1/volume/${collection}`,
    `patch /v1/volume/${collection}`,
    `delete /v1/nodes/{node}/volume/${collection}`,
    `patch /v1/nodes/{node}/volume/${collection}`,
    `post /v1/nodes/{node}/volume/${collection}`,
    `get /v1/nodes/{node}/volume/${collection}/{volume}`,
    `patch /v1/nodes/{node}/volume/${collection}/{volume}`,
    `delete /v1/nodes/{node}/volume/${collection}/{volume}`,
    // pecan's positional `fields` (docs/baremetal.md); the segment bound as the body
    `get /v1/volume/${collection}/{volume}/{extra}`,
    `post /v1/volume/${collection}/{volume}`,
    `post /v1/nodes/{node}/volume/${collection}/{volume}`,
    `get /v1/nodes/{node}/volume/${collection}/{volume}/{extra}`,
  ]),
];

const EVERY_METHOD = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];

/**
 * The (method, path) pairs the app answers with a handler of their own: single-method routes,
 * and GET of the few declared for every method at once (`/`, `/v1`, shards); the other
 * multi-method routes are declareRoute's 405s.
 */
function registeredRoutes(): string[] {
  const app = Fastify({ exposeHeadRoutes: false });
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    const url = route.url.replace(/:(\w+)/g, '{$1}');
    const methods = route.method;
    if (typeof methods === 'string') routes.push(`${methods.toLowerCase()} ${url}`);
    else if (EVERY_METHOD.every((method) => methods.includes(method))) routes.push(`get ${url}`);
  });
  registerRoutes(app);
  return routes.sort();
}

const paths = (version: string) => Object.keys(baremetalOpenApi(version).paths);

/** The query parameters of an operation, shared ones included. */
function queryNames(version: string, path: string, method = 'get'): string[] {
  const document = baremetalOpenApi(version);
  const parameters = document.paths[path][method].parameters as {
    name?: string;
    in?: string;
    $ref?: string;
  }[];
  return parameters
    .map((p) => (p.$ref ? document.components.parameters[p.$ref.split('/').pop() ?? ''] : p))
    .filter((p) => p.in === 'query')
    .map((p) => p.name);
}

const nodeFields = (version: string) =>
  Object.keys(baremetalOpenApi(version).components.schemas.Node.properties);

describe('bare metal OpenAPI documents', () => {
  test('every microversion has a valid OpenAPI 3.1 document', async () => {
    for (const version of BAREMETAL_VERSIONS) {
      const document = baremetalOpenApi(version);
      assert.deepEqual(await openApiProblems(document), [], version);
      assert.equal(document.info.version, version);
    }
  });

  test('the documents list the routes the app registers, less those that only answer errors', () => {
    const documented = BAREMETAL_OPENAPI.operations.map((o) => `${o.method} ${o.path}`);
    assert.deepEqual([...documented, ...ERROR_ONLY].sort(), registeredRoutes());
  });

  test('routes appear at the version that brought them', () => {
    assert.ok(!paths('1.1').includes('/v1/nodes/{node}/traits'));
    assert.ok(!paths('1.36').includes('/v1/nodes/{node}/traits'));
    assert.ok(paths('1.37').includes('/v1/nodes/{node}/traits'));
    assert.ok(
      !paths('1.22').includes('/v1/portgroups') && paths('1.23').includes('/v1/portgroups'),
    );
    assert.ok(!paths('1.27').includes('/v1/nodes/{node}/vifs'));
    assert.ok(paths('1.28').includes('/v1/nodes/{node}/vifs'));
    assert.ok(
      !paths('1.48').includes('/v1/conductors') && paths('1.49').includes('/v1/conductors'),
    );
    assert.ok(!paths('1.80').includes('/v1/nodes/{node}/inventory'));
    assert.ok(paths('1.81').includes('/v1/nodes/{node}/inventory'));
    assert.ok(!paths('1.81').includes('/v1/shards') && paths('1.82').includes('/v1/shards'));
    assert.ok(
      !paths('1.51').includes('/v1/allocations') && paths('1.52').includes('/v1/allocations'),
    );
    const patchable = (v: string) =>
      Object.keys(baremetalOpenApi(v).paths['/v1/allocations/{allocation}'] ?? {});
    assert.ok(!patchable('1.56').includes('patch') && patchable('1.57').includes('patch'));
    assert.ok(
      !paths('1.54').includes('/v1/deploy_templates') &&
        paths('1.55').includes('/v1/deploy_templates'),
    );
  });

  test('query parameters appear at the version whose gate the handlers check', () => {
    assert.ok(!queryNames('1.81', '/v1/nodes').includes('shard'));
    assert.ok(queryNames('1.82', '/v1/nodes').includes('shard'));
    assert.ok(queryNames('1.82', '/v1/ports').includes('shard'));
    assert.ok(!queryNames('1.7', '/v1/nodes').includes('fields'));
    assert.ok(queryNames('1.8', '/v1/nodes').includes('fields'));
    assert.ok(!queryNames('1.42', '/v1/nodes').includes('detail'));
    assert.ok(queryNames('1.43', '/v1/nodes').includes('detail'));
    assert.ok(!queryNames('1.49', '/v1/nodes').includes('owner'));
    assert.ok(queryNames('1.50', '/v1/nodes').includes('owner'));
    assert.ok(!queryNames('1.44', '/v1/nodes/{node}', 'patch').includes('reset_interfaces'));
    assert.ok(queryNames('1.45', '/v1/nodes/{node}', 'patch').includes('reset_interfaces'));
  });

  test('node fields follow the versioned-fields table', () => {
    assert.ok(!nodeFields('1.1').includes('name') && nodeFields('1.5').includes('name'));
    assert.ok(!nodeFields('1.36').includes('traits') && nodeFields('1.37').includes('traits'));
    assert.ok(!nodeFields('1.81').includes('shard') && nodeFields('1.82').includes('shard'));
    assert.ok(
      !nodeFields('1.48').includes('conductor') && nodeFields('1.49').includes('conductor'),
    );
    const ports = (version: string) =>
      Object.keys(baremetalOpenApi(version).components.schemas.Port.properties);
    assert.ok(!ports('1.52').includes('is_smartnic') && ports('1.53').includes('is_smartnic'));
  });

  test('the error format is the real one, the version header documented', () => {
    const document = baremetalOpenApi('1.82');
    assert.deepEqual(document.components.schemas.Error.required, ['error_message']);
    assert.equal(document.components.schemas.Error.properties.error_message.type, 'string');
    const header = document.components.parameters.microversion;
    assert.equal(header.name, 'X-OpenStack-Ironic-API-Version');
    assert.equal(header.example, '1.82');
  });
});

describe('bare metal OpenAPI documents against the app [sqlite]', () => {
  let api: BatonApi;

  before(async () => {
    api = await startBatonApi();
  });
  after(async () => {
    await api?.close();
  });

  async function call(version: string, method: string, url: string, body?: unknown) {
    const response = await api.request({
      method: method as 'GET',
      url,
      headers: {
        'x-openstack-ironic-api-version': version,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return {
      status: response.statusCode,
      text: response.body,
      body: response.body === '' ? undefined : response.json(),
    };
  }

  /** A request whose answer must be one the document lists, with a body matching it. */
  async function checked(
    version: string,
    method: string,
    template: string,
    url: string,
    body?: unknown,
  ) {
    const response = await call(version, method, url, body);
    assert.ok(response.status < 300, `${method} ${url} at ${version}: ${response.text}`);
    const problem = bodyProblem(
      baremetalOpenApi(version),
      { path: template, method: method.toLowerCase(), status: response.status },
      response.body,
    );
    assert.equal(problem, undefined, `${method} ${url} at ${version}: ${response.text}`);
    return response;
  }

  test('serves each document; an unknown one is a 404 in the error_message format', async () => {
    const served = await call('1.82', 'GET', '/openapi/1.82.json');
    assert.equal(served.status, 200);
    const committed = join(import.meta.dirname, '../../../docs/openapi/baremetal/1.82.json');
    assert.equal(served.text, readFileSync(committed, 'utf8'));
    assert.equal((await call('1.1', 'GET', '/openapi/1.37.json')).body.info.version, '1.37');
    for (const file of ['1.83.json', '1.0.json', 'latest.json']) {
      const missing = await call('1.82', 'GET', `/openapi/${file}`);
      assert.equal(missing.status, 404, file);
      const fault = JSON.parse(missing.body.error_message);
      assert.equal(fault.faultcode, 'Client');
      assert.match(fault.faultstring, /No OpenAPI document/);
    }
    assert.equal((await call('1.82', 'PUT', '/openapi/1.82.json', {})).status, 405);
  });

  test('real answers at 1.1, 1.37 and 1.82 match the documents', async () => {
    for (const version of ['1.1', '1.37', '1.82']) {
      const at = Number(version.split('.')[1]);
      await checked(version, 'GET', '/', '/');
      await checked(version, 'GET', '/v1', '/v1');
      const chassis = await checked(version, 'POST', '/v1/chassis', '/v1/chassis', {
        description: 'rack',
      });
      await checked(version, 'GET', '/v1/chassis', '/v1/chassis');
      await checked(version, 'GET', '/v1/chassis/detail', '/v1/chassis/detail');
      const node = await checked(version, 'POST', '/v1/nodes', '/v1/nodes', {
        driver: 'fake-hardware',
        chassis_uuid: chassis.body.uuid,
      });
      const uuid = node.body.uuid as string;
      await checked(version, 'GET', '/v1/nodes', '/v1/nodes');
      await checked(version, 'GET', '/v1/nodes/detail', '/v1/nodes/detail');
      await checked(version, 'GET', '/v1/nodes/{node}', `/v1/nodes/${uuid}`);
      await checked(version, 'GET', '/v1/nodes/{node}/states', `/v1/nodes/${uuid}/states`);
      await checked(
        version,
        'GET',
        '/v1/chassis/{chassis_uuid}/nodes',
        `/v1/chassis/${chassis.body.uuid}/nodes`,
      );
      await checked(version, 'PATCH', '/v1/nodes/{node}', `/v1/nodes/${uuid}`, [
        { op: 'add', path: '/extra/rack', value: 'r1' },
      ]);
      const port = await checked(version, 'POST', '/v1/ports', '/v1/ports', {
        node_uuid: uuid,
        address: `52:54:00:00:${String(at).padStart(2, '0')}:01`,
      });
      await checked(version, 'GET', '/v1/ports', '/v1/ports');
      await checked(version, 'GET', '/v1/ports/detail', '/v1/ports/detail');
      await checked(version, 'GET', '/v1/ports/{port}', `/v1/ports/${port.body.uuid}`);
      await checked(version, 'GET', '/v1/nodes/{node}/ports', `/v1/nodes/${uuid}/ports`);
      await checked(version, 'GET', '/v1/drivers', '/v1/drivers');
      await checked(version, 'GET', '/v1/drivers/{driver_name}', '/v1/drivers/fake-hardware');
      if (at >= 37) {
        await checked(
          version,
          'PUT',
          '/v1/nodes/{node}/traits/{trait}',
          `/v1/nodes/${uuid}/traits/CUSTOM_GOLD`,
        );
        await checked(version, 'GET', '/v1/nodes/{node}/traits', `/v1/nodes/${uuid}/traits`);
        const group = await checked(version, 'POST', '/v1/portgroups', '/v1/portgroups', {
          node_uuid: uuid,
          address: `52:54:00:01:${String(at).padStart(2, '0')}:01`,
        });
        await checked(version, 'GET', '/v1/portgroups', '/v1/portgroups');
        await checked(
          version,
          'GET',
          '/v1/portgroups/{portgroup}',
          `/v1/portgroups/${group.body.uuid}`,
        );
      }
      if (at >= 82) {
        const template = await checked(
          version,
          'POST',
          '/v1/deploy_templates',
          '/v1/deploy_templates',
          {
            name: 'CUSTOM_CHECKED',
            steps: [{ interface: 'raid', step: 'create_configuration', args: {}, priority: 1 }],
          },
        );
        await checked(version, 'GET', '/v1/deploy_templates', '/v1/deploy_templates?detail=true');
        await checked(
          version,
          'PATCH',
          '/v1/deploy_templates/{template}',
          `/v1/deploy_templates/${template.body.uuid}`,
          [{ op: 'add', path: '/extra/x', value: 1 }],
        );
        const allocation = await checked(version, 'POST', '/v1/allocations', '/v1/allocations', {
          resource_class: 'rc-none',
          name: 'checked',
        });
        await checked(version, 'GET', '/v1/allocations', '/v1/allocations');
        await checked(
          version,
          'GET',
          '/v1/allocations/{allocation}',
          `/v1/allocations/${allocation.body.uuid}?fields=uuid,owner`,
        );
        await checked(version, 'GET', '/v1/conductors', '/v1/conductors?detail=true');
        await checked(version, 'GET', '/v1/shards', '/v1/shards');
        await checked(version, 'GET', '/v1/drivers', '/v1/drivers?detail=true');
        await checked(version, 'GET', '/v1/portgroups', '/v1/portgroups?detail=true');
        await checked(version, 'GET', '/v1/nodes', '/v1/nodes?detail=true&shard=a,b');
      }
    }
  });

  test('each GET with a gate answers at its gate (and is refused just below)', async () => {
    const node = (await call('1.82', 'POST', '/v1/nodes', { driver: 'fake-hardware' })).body;
    const group = await call('1.82', 'POST', '/v1/portgroups', {
      node_uuid: node.uuid,
      address: '52:54:00:02:00:01',
    });
    assert.equal(group.status, 201, group.text);
    const host = (await call('1.82', 'GET', '/v1/conductors')).body.conductors[0].hostname;
    // An allocation of the node, written as the conductor would (no conductor process needed).
    const allocation = await api.store.allocations.create(
      Allocation.create({ name: 'documented', resource_class: 'rc', node_id: null }),
    );
    allocation.set('node_id', Number((await api.store.nodes.get(node.uuid)).get('id')));
    await api.store.allocations.save(allocation);
    const template = await call('1.82', 'POST', '/v1/deploy_templates', {
      name: 'CUSTOM_DOCUMENTED',
      steps: [{ interface: 'bios', step: 'apply_configuration', args: {}, priority: 1 }],
    });
    assert.equal(template.status, 201, template.text);
    // A BIOS setting and a history event of the node, written as a conductor would.
    const nodeId = Number((await api.store.nodes.get(node.uuid)).get('id'));
    await api.store.biosSettings.create([
      BIOSSetting.create({ node_id: String(nodeId), name: 'BootMode', value: 'Uefi' }),
    ]);
    const event = await api.store.nodeHistory.create(
      NodeHistory.create({ node_id: nodeId, event: 'documented', severity: 'INFO' }),
    );
    // A node a ramdisk may look up in enroll: fast track.
    const fast = await call('1.82', 'POST', '/v1/nodes', {
      driver: 'fake-hardware',
      driver_info: { fast_track: true },
    });
    const connector = await call('1.82', 'POST', '/v1/volume/connectors', {
      node_uuid: node.uuid,
      type: 'iqn',
      connector_id: 'iqn.2017-05.org.openstack:documented',
    });
    assert.equal(connector.status, 201, connector.text);
    const target = await call('1.82', 'POST', '/v1/volume/targets', {
      node_uuid: node.uuid,
      volume_type: 'iscsi',
      boot_index: 0,
      volume_id: 'documented',
    });
    assert.equal(target.status, 201, target.text);
    // A URL per gated GET, naming things that exist; a new gated GET needs its line here.
    const urls: Record<string, string> = {
      '/v1/lookup': `/v1/lookup?node_uuid=${fast.body.uuid}`,
      '/v1/drivers/{driver_name}/raid/logical_disk_properties':
        '/v1/drivers/fake-hardware/raid/logical_disk_properties',
      '/v1/conductors': '/v1/conductors',
      '/v1/conductors/{hostname}': `/v1/conductors/${host}`,
      '/v1/nodes/{node}/traits': `/v1/nodes/${node.uuid}/traits`,
      '/v1/nodes/{node}/vifs': `/v1/nodes/${node.uuid}/vifs`,
      '/v1/nodes/{node}/inventory': `/v1/nodes/${node.uuid}/inventory`,
      '/v1/nodes/{node}/bios': `/v1/nodes/${node.uuid}/bios`,
      '/v1/nodes/{node}/bios/{setting}': `/v1/nodes/${node.uuid}/bios/BootMode`,
      '/v1/nodes/{node}/history': `/v1/nodes/${node.uuid}/history`,
      '/v1/nodes/{node}/history/{event}': `/v1/nodes/${node.uuid}/history/${event.get('uuid')}`,
      '/v1/nodes/{node}/portgroups': `/v1/nodes/${node.uuid}/portgroups`,
      '/v1/nodes/{node}/portgroups/detail': `/v1/nodes/${node.uuid}/portgroups/detail`,
      '/v1/portgroups': '/v1/portgroups',
      '/v1/portgroups/detail': '/v1/portgroups/detail',
      '/v1/portgroups/{portgroup}': `/v1/portgroups/${group.body.uuid}`,
      '/v1/portgroups/{portgroup}/ports': `/v1/portgroups/${group.body.uuid}/ports`,
      '/v1/portgroups/{portgroup}/ports/detail': `/v1/portgroups/${group.body.uuid}/ports/detail`,
      '/v1/shards': '/v1/shards',
      '/v1/allocations': '/v1/allocations',
      '/v1/allocations/{allocation}': '/v1/allocations/documented',
      '/v1/nodes/{node}/allocation': `/v1/nodes/${node.uuid}/allocation`,
      '/v1/deploy_templates': '/v1/deploy_templates',
      '/v1/deploy_templates/{template}': '/v1/deploy_templates/CUSTOM_DOCUMENTED',
      '/v1/volume': '/v1/volume',
      '/v1/volume/connectors': '/v1/volume/connectors',
      '/v1/volume/connectors/{volume}': `/v1/volume/connectors/${connector.body.uuid}`,
      '/v1/volume/targets': '/v1/volume/targets',
      '/v1/volume/targets/{volume}': `/v1/volume/targets/${target.body.uuid}`,
      '/v1/nodes/{node}/volume': `/v1/nodes/${node.uuid}/volume`,
      '/v1/nodes/{node}/volume/connectors': `/v1/nodes/${node.uuid}/volume/connectors`,
      '/v1/nodes/{node}/volume/targets': `/v1/nodes/${node.uuid}/volume/targets`,
    };
    const gated = BAREMETAL_OPENAPI.operations.filter(
      (op) => op.method === 'get' && op.since !== undefined,
    );
    assert.deepEqual(gated.map((op) => op.path).sort(), Object.keys(urls).sort());
    for (const op of gated) {
      const since = op.since?.text as string;
      const url = urls[op.path] as string;
      const at = await call(since, 'GET', url);
      // A node inspected by nothing has no inventory: the route's own 404, not the version's.
      const found = at.status === 200 || /inventory record/.test(at.text);
      assert.ok(found, `${url} at ${since}: ${at.text}`);
      const below = BAREMETAL_VERSIONS[BAREMETAL_VERSIONS.indexOf(since as never) - 1] as string;
      const refused = await call(below, 'GET', url);
      assert.ok([404, 406].includes(refused.status), `${url} at ${below}: ${refused.status}`);
      assert.doesNotMatch(refused.text, /inventory record/, `${url} at ${below}`);
    }
  });

  test('errors match the documented error body', async () => {
    const document = baremetalOpenApi('1.82');
    const answers = [
      await call('1.82', 'GET', '/v1/nodes/no-such-node'),
      await call('1.82', 'POST', '/v1/nodes', { driver: 7 }),
      await call('1.82', 'PUT', '/v1/nodes'),
      await call('1.82', 'GET', '/v1/no-such-thing'),
    ];
    for (const answer of answers) {
      assert.ok(answer.status >= 400, answer.text);
      assert.equal(errorBodyProblem(document, answer.body), undefined, answer.text);
    }
    assert.notEqual(errorBodyProblem(document, { errors: [] }), undefined);
  });

  test('a query parameter below its version is refused, as documented', async () => {
    const refused = await call('1.81', 'GET', '/v1/nodes?shard=a');
    assert.equal(refused.status, 406);
    assert.ok(JSON.parse(refused.body.error_message).faultstring);
    assert.equal((await call('1.82', 'GET', '/v1/nodes?shard=a')).status, 200);
  });
});
