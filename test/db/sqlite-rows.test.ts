/**
 * Rows read through the compiled row builder are the objects better-sqlite3 itself makes (wide
 * rows, repeated names, `__proto__`, every value type), and statements kept prepared by text
 * give the same answers again, also while one of them is being iterated.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Sqlite from 'better-sqlite3';
import { BusyWaitingSqlite } from '../../src/db/sqlite-busy-wait.ts';
import { allRows } from '../../src/db/sqlite-rows.ts';

function database() {
  const handle = new Sqlite(':memory:');
  const columns = Array.from({ length: 60 }, (_, i) => `c${i} text`).join(', ');
  handle.exec(`create table wide (id integer primary key, ${columns}, n real, b blob)`);
  const insert = handle.prepare(
    `insert into wide (id, ${Array.from({ length: 60 }, (_, i) => `c${i}`).join(', ')}, n, b) values (?, ${Array.from({ length: 60 }, () => '?').join(', ')}, ?, ?)`,
  );
  for (let id = 1; id <= 5; id++) {
    insert.run(
      id,
      ...Array.from({ length: 60 }, (_, i) => (i % 7 === 0 ? null : `v${id}-${i}`)),
      id / 3,
      Buffer.from([id, 0, 255]),
    );
  }
  return handle;
}

describe('SQLite rows as objects', () => {
  it('are the objects better-sqlite3 makes, for wide rows and every value type', () => {
    const handle = database();
    const text = 'select * from wide order by id';
    assert.deepEqual(allRows(handle.prepare(text), []), handle.prepare(text).all());
    const row = allRows(handle.prepare(text), [])[0] as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
    assert.deepEqual(row.b, Buffer.from([1, 0, 255]));
    assert.equal(row.c0, null);
  });

  it('keep the last value of a repeated column name, as better-sqlite3 does', () => {
    const handle = database();
    const text = 'select c1 as x, c2 as x, id from wide where id = ?';
    assert.deepEqual(allRows(handle.prepare(text), [2]), handle.prepare(text).all(2));
    assert.deepEqual(allRows(handle.prepare(text), [2]), [{ x: 'v2-2', id: 2 }]);
  });

  it('leave a column named __proto__ a plain property, never the prototype', () => {
    const handle = database();
    const rows = allRows(handle.prepare('select c1 as "__proto__", id from wide where id = 1'), []);
    const row = rows[0] as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
    assert.deepEqual(
      rows,
      handle.prepare('select c1 as "__proto__", id from wide where id = 1').all(),
    );
  });

  it('refuse a statement that returns no data as better-sqlite3 does', () => {
    const handle = database();
    assert.throws(() => allRows(handle.prepare('delete from wide where id = 99'), []), TypeError);
  });
});

describe('statements kept prepared', () => {
  it('answer again with new parameters, also while the same text is iterated', () => {
    const wrapped = new BusyWaitingSqlite(database(), 1000);
    const text = 'select id, c1 from wide where id >= ? order by id';
    const iterated = wrapped.prepare(text).iterate([1])[Symbol.iterator]();
    assert.deepEqual(iterated.next().value, { id: 1, c1: 'v1-1' });
    // The same text again, while the first is mid-iteration: its own statement answers.
    assert.deepEqual(
      wrapped
        .prepare(text)
        .all([4])
        .map((row) => (row as { id: number }).id),
      [4, 5],
    );
    assert.deepEqual(
      wrapped
        .prepare(text)
        .all([5])
        .map((row) => (row as { id: number }).id),
      [5],
    );
    assert.deepEqual(iterated.next().value, { id: 2, c1: 'v2-1' });
    // better-sqlite3 writes nothing while a query of the connection is being iterated.
    while (!iterated.next().done) {}
    const changed = wrapped.prepare('update wide set c1 = ? where id = ?').run(['new', 5]);
    assert.equal(changed.changes, 1);
    assert.deepEqual(wrapped.prepare(text).all([5]), [{ id: 5, c1: 'new' }]);
    wrapped.close();
  });
});
