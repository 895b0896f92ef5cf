import assert from 'node:assert/strict';
import { it } from 'node:test';
import { preparePlacementDatabase } from '../../../src/placement/store/prepare-database.ts';
import {
  CUSTOM_RESOURCE_CLASS_MIN_ID,
  STANDARD_RESOURCE_CLASSES,
  STANDARD_TRAITS,
} from '../../../src/placement/store/standard-data.ts';
import { forEachBackend } from '../../db/support/backends.ts';

forEachBackend('placement standard resource classes and traits', (ctx) => {
  async function snapshot() {
    const database = await preparePlacementDatabase(ctx.url(), { poolSize: 2 });
    try {
      const classes = await database.kysely
        .selectFrom('resource_classes')
        .select(['id', 'name'])
        .orderBy('id')
        .execute();
      const traits = await database.kysely.selectFrom('traits').select('name').execute();
      return {
        classes: classes.map((row) => ({ id: Number(row.id), name: row.name })),
        traits: traits.map((row) => row.name).sort(),
      };
    } finally {
      await database.close();
    }
  }

  it('gives every standard class its fixed id, VCPU being 0', async () => {
    const { classes } = await snapshot();
    assert.equal(STANDARD_RESOURCE_CLASSES.length, 21);
    assert.deepEqual(
      classes,
      STANDARD_RESOURCE_CLASSES.map((name, id) => ({ id, name })),
    );
    assert.deepEqual(classes[0], { id: 0, name: 'VCPU' });
    assert.ok(classes.every((row) => row.id < CUSTOM_RESOURCE_CLASS_MIN_ID));
  });

  it('holds all 345 standard traits', async () => {
    const { traits } = await snapshot();
    assert.equal(STANDARD_TRAITS.length, 345);
    assert.deepEqual(traits, [...STANDARD_TRAITS].sort());
  });

  it('changes nothing when prepared again, and keeps custom rows', async () => {
    const first = await snapshot();
    const database = await preparePlacementDatabase(ctx.url(), { poolSize: 2 });
    try {
      await database.kysely
        .insertInto('resource_classes')
        .values({ id: CUSTOM_RESOURCE_CLASS_MIN_ID, name: 'CUSTOM_KEPT', created_at: new Date() })
        .execute();
      await database.kysely
        .insertInto('traits')
        .values({ name: 'CUSTOM_KEPT', created_at: new Date() })
        .execute();
    } finally {
      await database.close();
    }
    const again = await snapshot();
    assert.deepEqual(again.classes, [
      ...first.classes,
      { id: CUSTOM_RESOURCE_CLASS_MIN_ID, name: 'CUSTOM_KEPT' },
    ]);
    assert.deepEqual(again.traits, [...first.traits, 'CUSTOM_KEPT'].sort());
  });
});
