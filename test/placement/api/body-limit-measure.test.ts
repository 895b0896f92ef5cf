/**
 * The measurement behind `[oslo_middleware] max_request_body_size`'s default: the largest
 * real requests Placement takes, built as a scheduler or a compute node's reshape sends them
 * (Python's json.dumps spacing), must fit it with margin, and are served whole.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { pythonJsonDumps } from '../../../src/python-compat/index.ts';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '../../../src/service/http/request-body.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

const CONSUMERS = 1_000;
/** A compute node with two nested children (NUMA nodes, or a GPU), as with vGPU reshapes. */
const PROVIDERS = 3;
const RESOURCES = { VCPU: 2, MEMORY_MB: 2048, DISK_GB: 20, VGPU: 1 };

function consumerSection(providers: readonly string[]) {
  return {
    allocations: Object.fromEntries(
      providers.map((provider) => [provider, { resources: { ...RESOURCES } }]),
    ),
    project_id: randomUUID(),
    user_id: randomUUID(),
    consumer_generation: null,
    consumer_type: 'INSTANCE',
    mappings: Object.fromEntries(providers.map((p, i) => [`_GROUP${i}`, [p]])),
  };
}

/** The largest POST /allocations and POST /reshaper sizes, and a default with margin over them. */
function largestRequests(providers: readonly string[]) {
  const allocations = Object.fromEntries(
    Array.from({ length: CONSUMERS }, () => [randomUUID(), consumerSection(providers)]),
  );
  const inventory = { total: 1_000_000, max_unit: 1_000_000, allocation_ratio: 16.0 };
  const reshape = {
    inventories: Object.fromEntries(
      providers.map((provider) => [
        provider,
        {
          resource_provider_generation: 0,
          inventories: Object.fromEntries(Object.keys(RESOURCES).map((rc) => [rc, inventory])),
        },
      ]),
    ),
    allocations,
  };
  return { allocations: pythonJsonDumps(allocations), reshape: pythonJsonDumps(reshape) };
}

it(`the default body limit fits a reshape of ${CONSUMERS} consumers with a margin of 4`, () => {
  const providers = Array.from({ length: PROVIDERS }, () => randomUUID());
  const sizes = largestRequests(providers);
  const largest = Math.max(sizes.allocations.length, sizes.reshape.length);
  // The figures of docs/security.md: about 0.73 MB for either.
  console.log(
    `body sizes: POST /allocations ${sizes.allocations.length} B, POST /reshaper ${sizes.reshape.length} B, default limit ${DEFAULT_MAX_REQUEST_BODY_SIZE} B`,
  );
  assert.ok(largest * 4 < DEFAULT_MAX_REQUEST_BODY_SIZE, `largest ${largest} B`);
});

/** 16 classes: the four above and twelve custom ones. */
const CUSTOM = Array.from({ length: 12 }, (_, i) => `CUSTOM_WIDE_${i}`);

forEachPlacementBackend('placement: a reshape writing 12,000 allocation rows', (ctx) => {
  it('is served whole (more rows than one statement may bind)', async () => {
    // 250 consumers × 3 providers × 16 classes: past SQLite's 32,766 and PostgreSQL's and
    // MariaDB's 65,535 parameters in one INSERT (it was a 500), without 1,000 consumers' cost.
    const api = ctx.api();
    for (const name of CUSTOM) {
      assert.equal(
        (await api.put(`/resource_classes/${name}`, undefined, { version: '1.7' })).status,
        201,
      );
    }
    const providers = Array.from({ length: PROVIDERS }, () => randomUUID());
    for (const [i, uuid] of providers.entries()) {
      const created = await api.post(
        '/resource_providers',
        { name: `node-${i}`, uuid, ...(i > 0 ? { parent_provider_uuid: providers[0] } : {}) },
        { version: '1.38' },
      );
      assert.equal(created.status, 200, created.text);
    }
    const resources = { ...RESOURCES, ...Object.fromEntries(CUSTOM.map((rc) => [rc, 1])) };
    const inventory = { total: 100_000, max_unit: 100_000, allocation_ratio: 16.0 };
    const reshape = {
      inventories: Object.fromEntries(
        providers.map((provider) => [
          provider,
          {
            resource_provider_generation: 0,
            inventories: Object.fromEntries(Object.keys(resources).map((rc) => [rc, inventory])),
          },
        ]),
      ),
      allocations: Object.fromEntries(
        Array.from({ length: 250 }, () => [
          randomUUID(),
          {
            allocations: Object.fromEntries(providers.map((p) => [p, { resources }])),
            project_id: 'p',
            user_id: 'u',
            consumer_generation: null,
            consumer_type: 'INSTANCE',
          },
        ]),
      ),
    };
    const reshaped = await api.post('/reshaper', reshape, { version: '1.38' });
    assert.equal(reshaped.status, 204, reshaped.text.slice(0, 2000));
    const usages = await api.get(`/resource_providers/${providers[0]}/usages`, { version: '1.38' });
    assert.equal(usages.body.usages.MEMORY_MB, 250 * 2048);
  });
});
