import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  ConsumerGenerationConflictError,
  type ConsumerWrite,
  deleteAllocationsOfConsumer,
  ProviderNotFoundError,
  writeAllocations,
} from '../../../src/placement/store/allocations.ts';
import { ensureKeyedRow } from '../../../src/placement/store/external-ids.ts';
import { ensureOwner } from '../../../src/placement/store/projects-users.ts';
import {
  consumerRecord,
  createProvider,
  insertBareAllocations,
} from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

forEachPlacementBackend('store: allocation writes and keyed rows', (ctx) => {
  let rp: { uuid: string; id: number };
  let vcpu: number;
  before(async () => {
    rp = await createProvider(ctx.placementDb(), { VCPU: { total: 10 } });
    vcpu = Number(
      (
        await ctx
          .placementDb()
          .kysely.selectFrom('resource_classes')
          .select('id')
          .where('name', '=', 'VCPU')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });

  it('concurrent get-or-create of one project yields one row and one id', async () => {
    const key = `project-${uuid()}`;
    const ids = await Promise.all(
      Array.from({ length: 8 }, () => ensureKeyedRow(ctx.placementDb(), 'projects', key)),
    );
    assert.equal(new Set(ids).size, 1);
    const rows = await ctx
      .placementDb()
      .kysely.selectFrom('projects')
      .select('id')
      .where('external_id', '=', key)
      .execute();
    assert.equal(rows.length, 1);
  });

  async function write(consumer: string, provider: string, generation?: number | null) {
    const owner = await ensureOwner(ctx.placementDb(), {
      projectExternalId: 'p',
      userExternalId: 'u',
    });
    const w: ConsumerWrite = {
      consumerUuid: consumer,
      owner,
      expectedGeneration: generation === undefined ? undefined : { value: generation },
      allocations: [{ providerUuid: provider, resources: [['VCPU', 1]] }],
    };
    return w;
  }

  it('PUT order: a missing provider is reported before a generation conflict; POST order: after', async () => {
    const ghost = uuid();
    const bad = await write(uuid(), ghost, 5);
    const classIds = new Map([['VCPU', vcpu]]);
    await assert.rejects(
      writeAllocations(ctx.placementDb(), [bad], { order: 'put', classIds }),
      ProviderNotFoundError,
    );
    await assert.rejects(
      writeAllocations(ctx.placementDb(), [bad], { order: 'post', classIds }),
      ConsumerGenerationConflictError,
    );
  });

  it('allocations without a consumer record are invisible to DELETE, as in the real service', async () => {
    const consumer = uuid();
    await insertBareAllocations(ctx.placementDb(), consumer, rp.id, { VCPU: 1 });
    assert.equal(await deleteAllocationsOfConsumer(ctx.placementDb(), consumer), false);
    // A write creates the record and replaces the bare rows.
    await writeAllocations(ctx.placementDb(), [await write(consumer, rp.uuid)], {
      order: 'put',
      classIds: new Map([['VCPU', vcpu]]),
    });
    assert.equal((await consumerRecord(ctx.placementDb(), consumer))?.generation, 1);
    const rows = await ctx
      .placementDb()
      .kysely.selectFrom('allocations')
      .select('used')
      .where('consumer_id', '=', consumer)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(await deleteAllocationsOfConsumer(ctx.placementDb(), consumer), true);
    assert.equal(await consumerRecord(ctx.placementDb(), consumer), undefined);
  });
});
