/**
 * The deploy template store on the three backends: a template and its steps written together,
 * read back in row order, found by id, UUID and name, listed and paged, its steps matched on a
 * change (unchanged steps keep their rows), names and UUIDs unique, and removed with its steps.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { DuplicateError, NotFoundError } from '../../../src/baremetal/common/errors.ts';
import { stepChanges } from '../../../src/baremetal/db/deploy-template-steps.ts';
import { DeployTemplate } from '../../../src/baremetal/objects/index.ts';
import { forEachStoreBackend } from '../support/store-fixtures.ts';

let serial = 0;
const traitName = () => `CUSTOM_T_${process.pid}_${++serial}`;
const step = (name: string, priority: number | string = 10, args = {}) => ({
  interface: 'bios',
  step: name,
  args,
  priority,
});

test('stepChanges keeps equal steps and inserts the others in key order', () => {
  const current = [
    { id: 1, step: step('b') },
    { id: 2, step: step('a', 5) },
  ];
  const { deleteIds, insert } = stepChanges(current, [step('c'), step('b'), step('a', 6)]);
  assert.deepEqual(deleteIds, [2]);
  assert.deepEqual(
    insert.map((s) => `${s.step}:${s.priority}`),
    ['a:6', 'c:10'],
  );
  // Args compare as sorted JSON: key order does not make a step different.
  const same = stepChanges(
    [{ id: 3, step: step('x', 1, { b: 1, a: 2 }) }],
    [step('x', 1, { a: 2, b: 1 })],
  );
  assert.deepEqual(same, { deleteIds: [], insert: [] });
});

forEachStoreBackend('deploy template store', (ctx) => {
  const templates = () => ctx.store().deployTemplates;
  const newTemplate = (steps: ReturnType<typeof step>[], name = traitName()) =>
    templates().create(DeployTemplate.create({ name, steps, extra: { k: 1 } }));

  test('a template and its steps are written together and read back by id, UUID and name', async () => {
    const created = await newTemplate([
      step('apply_configuration', '150'),
      step('factory_reset', 0),
    ]);
    // The answer to a create has the steps as given, as Ironic's.
    assert.equal((created.get('steps') as { priority: unknown }[])[0]?.priority, '150');
    const uuid = String(created.get('uuid'));
    const read = await templates().getByUuid(uuid);
    assert.deepEqual(read.get('steps'), [
      step('apply_configuration', 150),
      step('factory_reset', 0),
    ]);
    assert.deepEqual(read.get('extra'), { k: 1 });
    assert.equal(read.version, '1.1');
    assert.equal((await templates().getById(Number(read.get('id')))).get('uuid'), uuid);
    assert.equal((await templates().getByName(String(read.get('name')))).get('uuid'), uuid);
    await assert.rejects(templates().getByUuid(randomUUID()), NotFoundError);
    await assert.rejects(
      templates().getByName('CUSTOM_NONE'),
      /^NotFoundError: Deploy template CUSTOM_NONE could not be found\.$|Deploy template CUSTOM_NONE could not be found\./,
    );
  });

  test('names and UUIDs are unique, with the real texts', async () => {
    const first = await newTemplate([step('a')]);
    await assert.rejects(
      newTemplate([step('a')], String(first.get('name'))),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.message === `A deploy template with name ${first.get('name')} already exists.`,
    );
    await assert.rejects(
      templates().create(
        DeployTemplate.create({ name: traitName(), uuid: String(first.get('uuid')), steps: [] }),
      ),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.message === `A deploy template with UUID ${first.get('uuid')} already exists.`,
    );
  });

  test('a change of steps keeps the unchanged rows and appends the new ones', async () => {
    const created = await newTemplate([step('b'), step('a')]);
    const read = await templates().getByUuid(String(created.get('uuid')));
    read.set('steps', [step('c'), step('a'), step('z', 1)] as never);
    read.set('name', traitName());
    const saved = await templates().save(read);
    assert.deepEqual(
      (saved.get('steps') as { step: string }[]).map((s) => s.step),
      ['a', 'c', 'z'],
    );
    assert.equal(saved.get('name'), read.get('name'));
    const rows = await ctx
      .db()
      .kysely.selectFrom('deploy_template_steps')
      .select('step')
      .where('deploy_template_id', '=', Number(read.get('id')))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => r.step),
      ['a', 'c', 'z'],
    );
  });

  test('lists page by UUID, by name, and by names', async () => {
    const a = await newTemplate([step('a')]);
    const b = await newTemplate([step('b')]);
    const all = await templates().list({ marker: String(a.get('uuid')) });
    assert.ok(all.some((t) => t.get('uuid') === b.get('uuid')));
    assert.ok(!all.some((t) => t.get('uuid') === a.get('uuid')));
    const named = await templates().listByNames([String(b.get('name')), 'CUSTOM_ABSENT']);
    assert.deepEqual(
      named.map((t) => t.get('uuid')),
      [b.get('uuid')],
    );
    assert.equal((named[0]?.get('steps') as { step: string }[] | undefined)?.[0]?.step, 'b');
    assert.deepEqual(await templates().listByNames([]), []);
  });

  test('destroying removes the steps too; a second time is not found', async () => {
    const created = await newTemplate([step('a'), step('b')]);
    const id = Number(created.get('id'));
    await templates().destroy(id);
    const left = await ctx
      .db()
      .kysely.selectFrom('deploy_template_steps')
      .select('id')
      .where('deploy_template_id', '=', id)
      .execute();
    assert.deepEqual(left, []);
    await assert.rejects(templates().destroy(id), NotFoundError);
  });
});
