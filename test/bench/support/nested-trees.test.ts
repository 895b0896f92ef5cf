/**
 * The nested trees of the allocation-candidates scale bench (bench/support/nested-trees.ts):
 * the candidates they imply, and the SQL loader writing exactly those trees into Baton's
 * schema on PostgreSQL, loaded in two steps as the bench does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  BENCH_TRAIT,
  expectedAnswer,
  loadTrees,
  PROVIDERS_PER_TREE,
  ROLES,
  tree,
  usage,
} from '../../../bench/support/nested-trees.ts';
import type { Database } from '../../../src/db/index.ts';
import { preparePlacementDatabase } from '../../../src/placement/store/prepare-database.ts';
import { backendAvailable, createScratchDatabase } from '../../db/support/backends.ts';

const COMPUTE = { VCPU: 1, MEMORY_MB: 1024, DISK_GB: 10 };
const WITH_VF = { ...COMPUTE, SRIOV_NET_VF: 1 };

describe('nested bench trees', () => {
  it('fit 4 ways unless full; the trait query only on even trees', () => {
    // Trees 0 and 5 are full; 1-4 and 6-9 fit, the even ones with the trait.
    assert.deepEqual(expectedAnswer(10, COMPUTE), {
      requests: 32,
      summaries: { min: 32, max: 32 },
    });
    assert.deepEqual(expectedAnswer(10, WITH_VF, [BENCH_TRAIT]), {
      requests: 16,
      summaries: { min: 16, max: 16 },
    });
    assert.equal(expectedAnswer(10, WITH_VF).requests, 32);
  });

  it('over the limit, the summaries lie between the fewest trees and one per request', () => {
    assert.deepEqual(expectedAnswer(1000, COMPUTE, [], 1000), {
      requests: 1000,
      summaries: { min: 250 * PROVIDERS_PER_TREE, max: 800 * PROVIDERS_PER_TREE },
    });
  });

  it('a generation per write that touched the provider', () => {
    const partlyAndDiskFull = tree(30);
    const generations = Object.fromEntries(
      partlyAndDiskFull.providers.map((p) => [p.role, p.generation]),
    );
    assert.deepEqual(generations, { root: 3, numa0: 2, numa1: 1, nic: 2 });
    assert.deepEqual(usage(partlyAndDiskFull, 'root'), { DISK_GB: 500 });
  });
});

const unavailable = await backendAvailable('postgresql');
describe('loading nested bench trees by SQL', { skip: unavailable }, () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database<Record<string, unknown>>;

  before(async () => {
    scratch = await createScratchDatabase('postgresql');
    database = (await preparePlacementDatabase(scratch.url)) as unknown as Database<
      Record<string, unknown>
    >;
    await sql`insert into traits (name, created_at) values (${BENCH_TRAIT}, now())`.execute(
      database.kysely,
    );
    await loadTrees(database.kysely, 0, 10);
    await loadTrees(database.kysely, 10, 25);
  });
  after(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('writes every provider of every tree with its root, parent and generation', async () => {
    const rows = await sql<{
      name: string;
      generation: number;
      root: string;
      parent: string | null;
      is_root: boolean;
    }>`select p.name, p.generation, r.name as root, pp.name as parent,
         p.root_provider_id = p.id as is_root
       from resource_providers p
       join resource_providers r on r.id = p.root_provider_id
       left join resource_providers pp on pp.id = p.parent_provider_id`.execute(database.kysely);
    assert.equal(rows.rows.length, 25 * PROVIDERS_PER_TREE);
    const byName = new Map(rows.rows.map((r) => [r.name, r]));
    for (let i = 0; i < 25; i++) {
      for (const p of tree(i).providers) {
        const row = byName.get(p.name);
        assert.ok(row, p.name);
        assert.equal(row.generation, p.generation, p.name);
        assert.equal(row.root, `cn-${i}`);
        assert.equal(row.is_root, p.role === 'root');
        assert.equal(row.parent, p.role === 'root' ? null : `cn-${i}`);
      }
    }
  });

  it("writes each provider's inventory, usage and traits", async () => {
    const used = await sql<{ name: string; rc: string; used: number }>`
      select p.name, rc.name as rc, coalesce(sum(a.used), 0)::int as used
      from inventories i
      join resource_providers p on p.id = i.resource_provider_id
      join resource_classes rc on rc.id = i.resource_class_id
      left join allocations a
        on a.resource_provider_id = i.resource_provider_id
        and a.resource_class_id = i.resource_class_id
      group by p.name, rc.name`.execute(database.kysely);
    const traits = await sql<{ name: string }>`
      select p.name from resource_provider_traits rpt
      join resource_providers p on p.id = rpt.resource_provider_id`.execute(database.kysely);
    const traited = new Set(traits.rows.map((r) => r.name));
    const seen = new Map(used.rows.map((r) => [`${r.name} ${r.rc}`, r.used]));
    let inventories = 0;
    for (let i = 0; i < 25; i++) {
      const t = tree(i);
      for (const role of ROLES) {
        const p = t.providers.find((x) => x.role === role);
        assert.ok(p);
        assert.equal(traited.has(p.name), p.traits.length > 0, p.name);
        for (const [rc, amount] of Object.entries(usage(t, role))) {
          assert.equal(seen.get(`${p.name} ${rc}`), amount, `${p.name} ${rc}`);
          inventories++;
        }
      }
    }
    assert.equal(used.rows.length, inventories);
  });

  it('moves the id sequences past the loaded rows', async () => {
    const made = await sql<{ id: number }>`insert into resource_providers
        (uuid, name, generation, created_at) values ('x', 'after-load', 0, now())
      returning id`.execute(database.kysely);
    assert.equal(Number(made.rows[0]?.id), 25 * PROVIDERS_PER_TREE + 1);
  });
});
