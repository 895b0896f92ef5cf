/** A rehearsal's database must hold no table: an empty one passes, one with a table is named. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { assertEmptyDatabase, DatabaseNotEmptyError } from '../../src/rehearsal/empty-database.ts';
import { forEachBackend } from '../db/support/backends.ts';

forEachBackend('a rehearsal database', ({ url, db }) => {
  it('empty: accepted', async () => {
    await assertEmptyDatabase(url());
  });

  it('with tables: refused, naming them, the URL without its password', async () => {
    for (const name of ['nodes', 'alembic_version', 'a1', 'a2', 'a3', 'a4']) {
      await sql`CREATE TABLE ${sql.table(name)} (id INTEGER)`.execute(db().kysely);
    }
    // PostgreSQL here trusts any password, so the URL can carry one to be redacted.
    const withPassword = url().replace(/^(postgresql):\/\/([^:@/]+)@/, '$1://$2:secret@');
    await assert.rejects(assertEmptyDatabase(withPassword), (error: Error) => {
      assert.ok(error instanceof DatabaseNotEmptyError);
      assert.match(error.message, /holds 6 tables \(a1, a2, a3, a4, alembic_version and 1 more\)/);
      assert.doesNotMatch(error.message, /secret/);
      return true;
    });
  });
});
