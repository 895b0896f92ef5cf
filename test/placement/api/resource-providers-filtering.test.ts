import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  type ApiResponse,
  forEachPlacementBackend,
  type PlacementContext,
  uuid,
} from '../support/placement-api.ts';

const LATEST = '1.39';

function detail(response: ApiResponse): string {
  return response.body.errors[0].detail;
}

function uuids(response: ApiResponse): string[] {
  assert.equal(response.status, 200, response.text);
  return response.body.resource_providers.map((p: { uuid: string }) => p.uuid).sort();
}

async function create(ctx: PlacementContext, name: string, parent?: string): Promise<string> {
  const id = uuid();
  const body: Record<string, unknown> = { name, uuid: id };
  if (parent !== undefined) body.parent_provider_uuid = parent;
  const response = await ctx.api().post('/resource_providers', body, { version: LATEST });
  assert.equal(response.status, 200, response.text);
  return id;
}

async function internalId(ctx: PlacementContext, id: string): Promise<number> {
  const row = await ctx
    .placementDb()
    .kysely.selectFrom('resource_providers')
    .select('id')
    .where('uuid', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function addTraits(ctx: PlacementContext, id: string, names: string[]) {
  const db = ctx.placementDb().kysely;
  const rows = await db.selectFrom('traits').select('id').where('name', 'in', names).execute();
  const providerId = await internalId(ctx, id);
  await db
    .insertInto('resource_provider_traits')
    .values(
      rows.map((row) => ({
        resource_provider_id: providerId,
        trait_id: Number(row.id),
        created_at: new Date(),
        updated_at: null,
      })),
    )
    .execute();
}

interface Inventory {
  total: number;
  reserved?: number;
  min_unit?: number;
  max_unit?: number;
  step_size?: number;
  allocation_ratio?: number;
}

async function addInventory(ctx: PlacementContext, id: string, classId: number, inv: Inventory) {
  await ctx
    .placementDb()
    .kysely.insertInto('inventories')
    .values({
      resource_provider_id: await internalId(ctx, id),
      resource_class_id: classId,
      total: inv.total,
      reserved: inv.reserved ?? 0,
      min_unit: inv.min_unit ?? 1,
      max_unit: inv.max_unit ?? inv.total,
      step_size: inv.step_size ?? 1,
      allocation_ratio: inv.allocation_ratio ?? 1,
      created_at: new Date(),
      updated_at: null,
    })
    .execute();
}

async function allocate(ctx: PlacementContext, id: string, classId: number, used: number) {
  await ctx
    .placementDb()
    .kysely.insertInto('allocations')
    .values({
      resource_provider_id: await internalId(ctx, id),
      consumer_id: uuid(),
      resource_class_id: classId,
      used,
      created_at: new Date(),
      updated_at: null,
    })
    .execute();
}

const VCPU = 0;
const MEMORY_MB = 1;
const DISK_GB = 2;

forEachPlacementBackend('GET /resource_providers filters', (ctx) => {
  const list = (query: string, version = LATEST) =>
    ctx.api().get(`/resource_providers${query}`, { version });

  // rootA ─ childA ─ grandA ; rootB ; lone
  let rootA = '';
  let childA = '';
  let grandA = '';
  let rootB = '';
  let lone = '';
  const agg1 = uuid();
  const agg2 = uuid();
  const agg3 = uuid();

  before(async () => {
    rootA = await create(ctx, 'root-a');
    childA = await create(ctx, 'child-a', rootA);
    grandA = await create(ctx, 'grand-a', childA);
    rootB = await create(ctx, 'root-b');
    lone = await create(ctx, 'lone');
    const setAggs = async (id: string, aggs: string[]) => {
      const response = await ctx
        .api()
        .put(`/resource_providers/${id}/aggregates`, aggs, { version: '1.1' });
      assert.equal(response.status, 200, response.text);
    };
    await setAggs(rootA, [agg1, agg3]);
    await setAggs(childA, [agg1, agg2]);
    await setAggs(rootB, [agg2]);
    await addTraits(ctx, rootA, ['HW_CPU_X86_AVX', 'STORAGE_DISK_SSD']);
    await addTraits(ctx, childA, ['HW_CPU_X86_AVX2', 'STORAGE_DISK_SSD']);
    await addTraits(ctx, rootB, ['HW_CPU_X86_AVX']);
    // rootA: 8 VCPU, 2 reserved, ratio 2 → 12 capacity, 5 used → 7 free.
    await addInventory(ctx, rootA, VCPU, {
      total: 8,
      reserved: 2,
      allocation_ratio: 2,
      max_unit: 8,
    });
    await allocate(ctx, rootA, VCPU, 5);
    // rootB: 4 VCPU, max_unit 2; 1024 MB in steps of 256, at least 256.
    await addInventory(ctx, rootB, VCPU, { total: 4, max_unit: 2 });
    await addInventory(ctx, rootB, MEMORY_MB, { total: 1024, min_unit: 256, step_size: 256 });
    await addInventory(ctx, lone, DISK_GB, { total: 100 });
  });

  it('name and uuid; an invalid uuid or an unknown parameter is 400', async () => {
    assert.deepEqual(uuids(await list('?name=root-a')), [rootA]);
    assert.deepEqual(uuids(await list('?name=nobody')), []);
    assert.deepEqual(uuids(await list(`?uuid=${rootB}`, '1.0')), [rootB]);
    assert.deepEqual(uuids(await list(`?uuid=${uuid()}`)), []);
    // `detail` is not a parameter of the real service either.
    const detailed = await list('?detail=true', '1.0');
    assert.equal(detailed.status, 400);
    assert.match(detail(detailed), /\('detail' was unexpected\)/);
    const bad = await list('?uuid=spameggs');
    assert.equal(bad.status, 400);
    assert.match(detail(bad), /Invalid query string parameters/);
    const unknown = await list('?spam=eggs');
    assert.equal(unknown.status, 400);
    assert.match(
      detail(unknown),
      /Invalid query string parameters: Additional properties are not allowed \('spam' was unexpected\)/,
    );
  });

  it('member_of from 1.3: a uuid or in: list; a bad uuid is 400', async () => {
    assert.equal((await list(`?member_of=${agg1}`, '1.2')).status, 400);
    assert.deepEqual(uuids(await list(`?member_of=${agg1}`, '1.3')), [rootA, childA].sort());
    assert.deepEqual(
      uuids(await list(`?member_of=in:${agg2},${agg3}`, '1.3')),
      [rootA, childA, rootB].sort(),
    );
    assert.deepEqual(uuids(await list(`?member_of=in:${uuid()}`, '1.3')), []);
    const bad = await list('?member_of=not+a+uuid');
    assert.equal(bad.status, 400);
    assert.match(
      detail(bad),
      /Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID\(s\)\. Got: not a uuid/,
    );
    const unprefixed = await list(`?member_of=${agg1},${agg2}`);
    assert.equal(unprefixed.status, 400);
    assert.match(
      detail(unprefixed),
      /Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword/,
    );
  });

  it('several member_of from 1.24 (ANDed); forbidden ones from 1.32', async () => {
    const two = `?member_of=${agg1}&member_of=${agg2}`;
    const early = await list(two, '1.23');
    assert.equal(early.status, 400);
    assert.match(detail(early), /Multiple member_of parameters are not supported/);
    assert.deepEqual(uuids(await list(two, '1.24')), [childA]);
    assert.deepEqual(
      uuids(await list(`?member_of=${agg1}&member_of=in:${agg2},${agg3}`, '1.24')),
      [rootA, childA].sort(),
    );

    const forbiddenEarly = await list(`?member_of=!${agg1}`, '1.31');
    assert.equal(forbiddenEarly.status, 400);
    assert.match(
      detail(forbiddenEarly),
      /Forbidden member_of parameters are not supported in the specified microversion/,
    );
    assert.deepEqual(
      uuids(await list(`?member_of=!${agg1}`, '1.32')),
      [grandA, rootB, lone].sort(),
    );
    assert.deepEqual(
      uuids(await list(`?member_of=!in:${agg1},${agg2}`, '1.32')),
      [grandA, lone].sort(),
    );
    assert.deepEqual(uuids(await list(`?member_of=!${agg3}&member_of=${agg1}`, '1.32')), [childA]);
    const mixed = await list(`?member_of=in:${agg1},!${agg2}`, '1.32');
    assert.equal(mixed.status, 400);
    assert.match(detail(mixed), /Expected 'member_of' parameter to contain valid UUID\(s\)/);
  });

  it('resources from 1.4: room left by (total - reserved) * ratio - used, within the unit limits', async () => {
    assert.equal((await list('?resources=VCPU:1', '1.3')).status, 400);
    assert.deepEqual(uuids(await list('?resources=VCPU:1', '1.4')), [rootA, rootB].sort());
    // rootA has 7 free but max_unit 8; rootB has max_unit 2.
    assert.deepEqual(uuids(await list('?resources=VCPU:7')), [rootA]);
    assert.deepEqual(uuids(await list('?resources=VCPU:8')), []);
    assert.deepEqual(uuids(await list('?resources=VCPU:2')), [rootA, rootB].sort());
    assert.deepEqual(uuids(await list('?resources=MEMORY_MB:256')), [rootB]);
    assert.deepEqual(uuids(await list('?resources=MEMORY_MB:300')), []);
    assert.deepEqual(uuids(await list('?resources=MEMORY_MB:128')), []);
    assert.deepEqual(uuids(await list('?resources=VCPU:1,MEMORY_MB:512')), [rootB]);
    assert.deepEqual(uuids(await list('?resources=DISK_GB:100')), [lone]);
    assert.deepEqual(uuids(await list('?resources=DISK_GB:99999999999')), []);
  });

  it('resources: malformed values and unknown classes are 400 in the real words', async () => {
    const cases: [string, RegExp][] = [
      [
        '',
        /Badly formed resources parameter\. Expected resources query string parameter in form: \?resources=VCPU:2,MEMORY_MB:1024\. Got: empty string\./,
      ],
      ['VCPU', /Got: VCPU\./],
      ['VCPU:1:2', /Got: VCPU:1:2\./],
      ['VCPU:x', /Requested resource VCPU expected positive integer amount\. Got: x\./],
      ['VCPU:0', /Requested resource VCPU requires amount >= 1\. Got: 0\./],
      ['VCPU:-3', /Requested resource VCPU requires amount >= 1\. Got: -3\./],
      [
        'CUSTOM_NOPE:1',
        /Invalid resource class in resources parameter: No such resource class CUSTOM_NOPE\./,
      ],
    ];
    for (const [value, message] of cases) {
      const response = await list(`?resources=${value}`);
      assert.equal(response.status, 400, value);
      assert.match(detail(response), message, value);
    }
  });

  it('in_tree from 1.14; an unknown provider gives an empty list', async () => {
    assert.equal((await list(`?in_tree=${rootA}`, '1.13')).status, 400);
    assert.deepEqual(
      uuids(await list(`?in_tree=${grandA}`, '1.14')),
      [rootA, childA, grandA].sort(),
    );
    assert.deepEqual(uuids(await list(`?in_tree=${uuid()}`)), []);
    assert.equal((await list('?in_tree=nope')).status, 400);
    assert.deepEqual(uuids(await list(`?in_tree=${rootA}&member_of=${agg2}`)), [childA]);
  });

  it('required from 1.18; forbidden traits from 1.22', async () => {
    const early = await list('?required=HW_CPU_X86_AVX', '1.17');
    assert.equal(early.status, 400);
    assert.match(detail(early), /Additional properties are not allowed/);
    assert.deepEqual(uuids(await list('?required=HW_CPU_X86_AVX', '1.18')), [rootA, rootB].sort());
    assert.deepEqual(uuids(await list('?required=HW_CPU_X86_AVX,STORAGE_DISK_SSD', '1.18')), [
      rootA,
    ]);
    const forbiddenEarly = await list('?required=!STORAGE_DISK_SSD', '1.21');
    assert.equal(forbiddenEarly.status, 400);
    assert.match(
      detail(forbiddenEarly),
      /Invalid query string parameters: Expected 'required' parameter value of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC\. Got: !STORAGE_DISK_SSD/,
    );
    assert.deepEqual(
      uuids(await list('?required=!STORAGE_DISK_SSD', '1.22')),
      [grandA, rootB, lone].sort(),
    );
    assert.deepEqual(uuids(await list('?required=!HW_CPU_X86_AVX2,STORAGE_DISK_SSD', '1.22')), [
      rootA,
    ]);
    assert.deepEqual(
      uuids(await list('?required=!!HW_CPU_X86_AVX', '1.22')),
      [childA, grandA, lone].sort(),
    );
    assert.deepEqual(uuids(await list('?required=STORAGE_DISK_SSD&resources=VCPU:1')), [rootA]);
  });

  it('required: blank or unknown traits are 400', async () => {
    const blank = await list('?required=');
    assert.equal(blank.status, 400);
    assert.match(
      detail(blank),
      /Expected 'required' parameter value of the form: HW_CPU_X86_VMX,!CUSTOM_MAGIC\. Got an empty trait in: /,
    );
    const blankOld = await list('?required=', '1.21');
    assert.match(detail(blankOld), /of the form: HW_CPU_X86_VMX,CUSTOM_MAGIC\. Got an empty trait/);
    const gap = await list('?required=STORAGE_DISK_SSD,,HW_CPU_X86_AVX');
    assert.equal(gap.status, 400);
    const unknown = await list('?required=STORAGE_DISK_SSD,BOGUS_TRAIT');
    assert.equal(unknown.status, 400);
    assert.match(
      detail(unknown),
      /Invalid trait\(s\) in "required" parameter: No such trait\(s\): BOGUS_TRAIT\./,
    );
    const unknownForbidden = await list('?required=!BOGUS_TRAIT');
    assert.equal(unknownForbidden.status, 400);
    assert.match(detail(unknownForbidden), /No such trait\(s\): BOGUS_TRAIT\./);
  });

  it('in: any-traits and repeated required from 1.39; before, the last one counts', async () => {
    const early = await list('?required=in:HW_CPU_X86_AVX2,HW_CPU_X86_AVX', '1.38');
    assert.equal(early.status, 400);
    assert.match(
      detail(early),
      /The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only supported since microversion 1\.39\. Got: in:HW_CPU_X86_AVX2,HW_CPU_X86_AVX/,
    );
    assert.deepEqual(
      uuids(await list('?required=in:HW_CPU_X86_AVX2,HW_CPU_X86_AVX')),
      [rootA, childA, rootB].sort(),
    );
    assert.deepEqual(
      uuids(await list('?required=HW_CPU_X86_AVX&required=STORAGE_DISK_SSD', '1.38')),
      [rootA, childA].sort(),
    );
    assert.deepEqual(uuids(await list('?required=HW_CPU_X86_AVX&required=STORAGE_DISK_SSD')), [
      rootA,
    ]);
    assert.deepEqual(
      uuids(await list('?required=in:HW_CPU_X86_AVX2,HW_CPU_X86_AVX&required=!STORAGE_DISK_SSD')),
      [rootB],
    );
    const forbiddenIn = await list('?required=in:HW_CPU_X86_AVX,!STORAGE_DISK_SSD');
    assert.equal(forbiddenIn.status, 400);
    assert.match(
      detail(forbiddenIn),
      /The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not support forbidden traits\./,
    );
    const emptyIn = await list('?required=in:HW_CPU_X86_AVX,');
    assert.equal(emptyIn.status, 400);
    assert.match(
      detail(emptyIn),
      /of the form: in:HW_CPU_X86_VMX,CUSTOM_MAGIC\. Got an empty trait in: /,
    );
  });

  it('an empty match stops before unknown names are refused (as the real service)', async () => {
    // A missing in_tree provider answers [] even with an unknown trait or class.
    assert.deepEqual(uuids(await list(`?in_tree=${uuid()}&required=BOGUS_TRAIT`)), []);
    assert.deepEqual(uuids(await list(`?in_tree=${uuid()}&resources=CUSTOM_NOPE:1`)), []);
    // Required traits nobody has: [] before the forbidden trait or the class is looked up.
    assert.deepEqual(uuids(await list('?required=HW_CPU_X86_SGX,!BOGUS_TRAIT')), []);
    assert.deepEqual(uuids(await list('?required=HW_CPU_X86_SGX&resources=CUSTOM_NOPE:1')), []);
    // Aggregates nobody is in: [] before the class is looked up.
    assert.deepEqual(uuids(await list(`?member_of=${uuid()}&resources=CUSTOM_NOPE:1`)), []);
    // But a matching required set lets the unknown forbidden trait be refused.
    assert.equal((await list('?required=HW_CPU_X86_AVX,!BOGUS_TRAIT')).status, 400);
  });
});
