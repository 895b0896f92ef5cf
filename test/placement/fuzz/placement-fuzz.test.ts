/**
 * Placement fuzzed (issue 16 §1): every route, several microversions, roles and content
 * types, bodies near the real shapes and far from them, on SQLite, PostgreSQL and MariaDB.
 * No answer may be a 5xx or take more than 10 s; every error is in Placement's format with
 * the request id of its header; after every request, no generation went back and no
 * allocation lost its inventory; at the end, usages equal the sum of the allocations.
 * Counted: 1,000 requests per database, all of them sent however long they take (a clock
 * would cut a run short on a loaded machine and still pass; docs/security.md).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { RESOURCE_ROUTES } from '../../../src/placement/api/routes.ts';
import {
  declaredRoutes,
  type FuzzAnswer,
  type FuzzRequest,
  type FuzzRoute,
  fuzzHttp,
} from '../../support/http-fuzz.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

const FUZZ_REQUESTS = 1_000;
const PARENT = randomUUID();
const CHILD = randomUUID();
const CONSUMER = randomUUID();
const AGGREGATE = randomUUID();

/** Bodies of the shapes the write routes take, for the fuzzer to start from. */
const BODIES: unknown[] = [
  { name: 'fuzzed', uuid: randomUUID(), parent_provider_uuid: PARENT },
  { name: 'renamed', parent_provider_uuid: null },
  { resource_provider_generation: 0, inventories: { VCPU: { total: 8, reserved: 1 } } },
  { resource_class: 'MEMORY_MB', total: 1024, max_unit: 512, allocation_ratio: 1.5 },
  { resource_provider_generation: 0, total: 16, min_unit: 1, step_size: 1 },
  { resource_provider_generation: 0, aggregates: [AGGREGATE] },
  [AGGREGATE],
  { resource_provider_generation: 0, traits: ['CUSTOM_FUZZ', 'HW_CPU_X86_AVX'] },
  { name: 'CUSTOM_FUZZ_NEW' },
  {
    allocations: { [PARENT]: { resources: { VCPU: 1 } } },
    project_id: 'fuzz-project',
    user_id: 'fuzz-user',
    consumer_generation: null,
    consumer_type: 'INSTANCE',
  },
  { allocations: [{ resource_provider: { uuid: PARENT }, resources: { VCPU: 1 } }] },
  {
    [randomUUID()]: {
      allocations: { [CHILD]: { resources: { VCPU: 1 } } },
      project_id: 'fuzz-project',
      user_id: 'fuzz-user',
      consumer_generation: null,
      consumer_type: 'MIGRATION',
    },
  },
  {
    inventories: {
      [PARENT]: { resource_provider_generation: 0, inventories: { VCPU: { total: 4 } } },
    },
    allocations: {},
  },
];

const QUERY_KEYS = [
  'name',
  'uuid',
  'member_of',
  'in_tree',
  'resources',
  'required',
  'limit',
  'project_id',
  'user_id',
  'consumer_type',
  'group_policy',
  'root_required',
  'same_subtree',
  'resources1',
  'required1',
  'associated',
  'only',
];

/** One entry per URL with the methods it declares (the 405 catch-all takes several). */
function byUrl(routes: readonly FuzzRoute[]): FuzzRoute[] {
  const merged = new Map<string, Set<string>>();
  for (const route of routes) {
    const set = merged.get(route.url) ?? new Set<string>();
    if (route.methods.length === 1) for (const method of route.methods) set.add(method);
    merged.set(route.url, set);
  }
  return [...merged].map(([url, methods]) => ({ url, methods: [...methods] }));
}

function checkPlacementAnswer(answer: FuzzAnswer, request: FuzzRequest): void {
  const where = `${request.method} ${request.url}`;
  const id = answer.headers['x-openstack-request-id'];
  assert.match(String(id), /^req-[0-9a-f-]{36}$/, `${where}: request id header`);
  if (answer.status < 400 || request.method === 'HEAD') return;
  assert.ok(answer.body.length < 64 * 1024, `${where}: an error of ${answer.body.length} bytes`);
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return; // HTML or text, as Accept asked
  const body = JSON.parse(answer.body) as {
    errors?: { status: number; request_id: string; title: string; detail: string }[];
    message?: string;
    title?: string;
  };
  if (body.errors !== undefined) {
    const [error] = body.errors;
    assert.equal(error?.status, answer.status, where);
    assert.equal(error?.request_id, id, where);
    assert.equal(typeof error?.detail, 'string', where);
  } else {
    // keystonemiddleware's and WebOb's own (401, a 503 of the auth layer): no request id.
    assert.ok([401, 503].includes(answer.status), `${where}: ${answer.body}`);
    assert.equal(typeof body.title, 'string', where);
  }
}

forEachPlacementBackend('placement fuzz', (ctx) => {
  let routes: FuzzRoute[];

  before(async () => {
    routes = byUrl(
      await declaredRoutes(
        () => Fastify({ exposeHeadRoutes: false }),
        (app) => {
          for (const register of RESOURCE_ROUTES) register(app);
        },
      ),
    );
    const api = ctx.api();
    const v = { version: '1.38' };
    assert.equal(
      (await api.post('/resource_providers', { name: 'p', uuid: PARENT }, v)).status,
      200,
    );
    assert.equal(
      (
        await api.post(
          '/resource_providers',
          { name: 'c', uuid: CHILD, parent_provider_uuid: PARENT },
          v,
        )
      ).status,
      200,
    );
    for (const uuid of [PARENT, CHILD]) {
      const put = await api.put(
        `/resource_providers/${uuid}/inventories`,
        {
          resource_provider_generation: 0,
          inventories: { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } },
        },
        v,
      );
      assert.equal(put.status, 200, put.text);
    }
    assert.equal((await api.put('/traits/CUSTOM_FUZZ', undefined, v)).status, 201);
    const allocated = await api.put(
      `/allocations/${CONSUMER}`,
      {
        allocations: {
          [PARENT]: { resources: { VCPU: 2 } },
          [CHILD]: { resources: { MEMORY_MB: 128 } },
        },
        project_id: 'fuzz-project',
        user_id: 'fuzz-user',
        consumer_generation: null,
        consumer_type: 'INSTANCE',
      },
      v,
    );
    assert.equal(allocated.status, 204, allocated.text);
  });

  it(`answers ${FUZZ_REQUESTS} fuzzed requests without a 5xx, within its format`, async () => {
    const db = ctx.placementDb().kysely;
    const generations = new Map<string, number>();
    const report = await fuzzHttp({
      routes,
      fill: () => ({
        uuid: Math.random() < 0.5 ? PARENT : CHILD,
        resource_class: Math.random() < 0.5 ? 'VCPU' : 'MEMORY_MB',
        name: Math.random() < 0.5 ? 'CUSTOM_FUZZ' : 'VCPU',
        consumer_uuid: CONSUMER,
      }),
      versionHeader: 'openstack-api-version',
      versions: [
        'placement 1.0',
        'placement 1.10',
        'placement 1.20',
        'placement 1.28',
        'placement 1.30',
        'placement 1.36',
        'placement 1.39',
        'placement latest',
        'placement 9.9',
        'placement x',
      ],
      queryKeys: QUERY_KEYS,
      bodies: BODIES,
      baseHeaders: { 'x-auth-token': 'admin', accept: 'application/json' },
      headerSets: [
        { 'x-auth-token': 'someone', 'x-roles': 'reader' },
        { 'x-auth-token': 'someone:fuzz-project', 'x-roles': 'member' },
        { accept: 'text/html' },
        { accept: 'text/plain;q=0.1, bogus' },
        { 'openstack-system-scope': 'all', 'x-roles': 'reader', 'x-auth-token': 'sys' },
        { origin: 'http://example.com' },
      ],
      send: async (request) => {
        const response = await ctx.api().app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.body === undefined ? {} : { payload: request.body }),
        });
        return { status: response.statusCode, headers: response.headers, body: response.body };
      },
      checkAnswer: checkPlacementAnswer,
      checkInvariants: async () => {
        // Generations never go back (keyed by row id: a deleted then recreated provider or
        // consumer is a new row).
        const rows = await sql<{ kind: string; id: number; generation: number }>`
          SELECT 'p' AS kind, id, generation FROM resource_providers
          UNION ALL SELECT 'c' AS kind, id, generation FROM consumers`.execute(db);
        for (const row of rows.rows) {
          const key = `${row.kind}${row.id}`;
          const before = generations.get(key);
          const now = Number(row.generation);
          assert.ok(
            before === undefined || now >= before,
            `generation of ${key}: ${before} → ${now}`,
          );
          generations.set(key, now);
        }
        // No allocation without the inventory it draws on (deleting one in use is refused).
        const orphans = await sql<{ n: number }>`
          SELECT COUNT(*) AS n FROM allocations a
          WHERE NOT EXISTS (SELECT 1 FROM inventories i
            WHERE i.resource_provider_id = a.resource_provider_id
              AND i.resource_class_id = a.resource_class_id)`.execute(db);
        assert.equal(Number(orphans.rows[0]?.n), 0, 'allocations without inventory');
      },
      seed: 16_001,
      numRuns: FUZZ_REQUESTS,
    });
    console.log(
      `placement fuzz [${ctx.backend}]: ${report.requests} requests in ${report.elapsedMs} ms, 5xx: ${report.serverErrors}, by status ${JSON.stringify(report.byStatus)}`,
    );
    assert.equal(report.requests, FUZZ_REQUESTS);
    // Usages are the sum of the allocations, provider by provider.
    for (const uuid of [PARENT, CHILD]) {
      const usages = await ctx.api().get(`/resource_providers/${uuid}/usages`, { version: '1.38' });
      if (usages.status === 404) continue; // deleted by the fuzz
      const summed = await sql<{ name: string; used: number }>`
        SELECT rc.name AS name, SUM(a.used) AS used FROM allocations a
        JOIN resource_providers rp ON rp.id = a.resource_provider_id
        JOIN resource_classes rc ON rc.id = a.resource_class_id
        WHERE rp.uuid = ${uuid} GROUP BY rc.name`.execute(db);
      for (const row of summed.rows) {
        assert.equal(usages.body.usages[row.name], Number(row.used), `${uuid} ${row.name}`);
      }
    }
  });
});
