import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defineObjectType,
  FieldValueError,
  f,
  IncompatibleObjectVersionError,
  objectFromDbRow,
} from '../../src/objects/index.ts';

const Disk = defineObjectType({
  name: 'Disk',
  namespace: { project: 'baton', serial: 'baton_object' },
  fields: {
    id: f.integer(),
    size: f.integer({ nullable: true }),
    label: f.string({ nullable: true }),
  },
  history: [
    { version: '1.0', note: 'Initial version' },
    { version: '1.1', note: 'Add label', added: ['label'] },
  ],
});

describe('objectFromDbRow', () => {
  it("reads the row version's columns, then converts to the latest", () => {
    const old = objectFromDbRow(Disk, { id: 1, size: 10, label: null, version: '1.0' });
    assert.equal(old.version, '1.1');
    assert.equal(old.get('size'), 10);
    assert.equal(old.get('label'), null);
    assert.deepEqual([...old.changedFields()], ['label']);
    const current = objectFromDbRow(Disk, { id: 2, size: null, label: 'a', version: '1.1' });
    assert.deepEqual(
      [current.get('id'), current.get('size'), current.get('label')],
      [2, null, 'a'],
    );
    assert.deepEqual([...current.changedFields()], []);
  });

  it('keeps what a newer release wrote in a later column of a row an older writer stamped', () => {
    // A process pinned to 1.0 saved the row: it could not see `label`, so it left it alone.
    const row = objectFromDbRow(Disk, { id: 1, size: 10, label: 'kept', version: '1.0' });
    assert.equal(row.get('label'), 'kept');
    assert.deepEqual([...row.changedFields()], []);
  });

  it("lets a step's upgrade rule overrule a later column an older write made stale", () => {
    const Tagged = defineObjectType({
      name: 'Tagged',
      namespace: { project: 'baton', serial: 'baton_object' },
      fields: {
        id: f.integer(),
        tag: f.string({ nullable: true }),
        label: f.string({ nullable: true }),
      },
      history: [
        { version: '1.0', note: 'Initial version' },
        {
          version: '1.1',
          note: 'label is derived from tag',
          added: ['label'],
          upgrade: (obj) => obj.assign('label', `#${String(obj.peek('tag'))}`),
        },
      ],
    });
    const row = objectFromDbRow(Tagged, { id: 1, tag: 'new', label: '#old', version: '1.0' });
    assert.equal(row.get('label'), '#new');
    assert.deepEqual([...row.changedFields()], ['label']);
  });

  it('leaves a column the row lacks unset, and takes a null column as null', () => {
    const disk = objectFromDbRow(Disk, { id: 3, label: null, version: '1.1' });
    assert.equal(disk.isSet('size'), false);
    assert.equal(disk.get('label'), null);
  });

  it('refuses a version it cannot read every time, after reading good ones', () => {
    for (let i = 0; i < 3; i++) {
      objectFromDbRow(Disk, { id: i, size: 1, label: null, version: '1.1' });
      for (const version of ['1.2', '2.0', 'x', null, 11]) {
        assert.throws(
          () => objectFromDbRow(Disk, { id: i, size: 1, label: null, version }),
          IncompatibleObjectVersionError,
        );
      }
    }
  });

  it('names the field of a value that is not of its type', () => {
    assert.throws(
      () => objectFromDbRow(Disk, { id: 4, size: 'big', label: null, version: '1.1' }),
      (error: unknown) => error instanceof FieldValueError && /size/.test(error.message),
    );
  });
});
