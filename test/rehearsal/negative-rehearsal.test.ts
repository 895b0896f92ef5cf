/**
 * A negative rehearsal between the real releases: a database made by the previous recorded
 * release (its own `db upgrade`, from the release cache) holding a node row at an object
 * version no release knows is refused by the new code's `db upgrade` with exit 2 and the real
 * message, and the schema is left as it was (no migration of the new code applied: once the
 * next release has migrations of its own, this is what tells that none ran). The skipped
 * release (a database two releases back) is tested with the command in
 * test/cli/baremetal-db-commands.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/index.ts';
import {
  preparePreviousRelease,
  readReleaseFiles,
  releaseCacheDir,
} from '../../src/rehearsal/previous-release.ts';
import { runBaton } from '../../src/rehearsal/processes.ts';
import { chooseRelease } from '../../src/rehearsal/release-files.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('negative rehearsal', () => {
  it("refuses, before touching the schema, a previous release's database holding an unknown object version", async () => {
    const release = chooseRelease(await readReleaseFiles(ROOT), 'baremetal');
    const previous = await preparePreviousRelease({
      repoRoot: ROOT,
      commit: release.commit,
      cacheDir: releaseCacheDir(),
      say: () => {},
    });
    const dir = await mkdtemp(join(tmpdir(), 'negative-rehearsal-'));
    const url = `sqlite:${join(dir, 'b.sqlite')}`;
    const created = await runBaton(previous, [
      'db',
      'upgrade',
      '--service',
      'baremetal',
      '--db',
      url,
    ]);
    assert.equal(created.status, 0, created.output);
    const db = await openDatabase(url);
    const migrations = async () =>
      (
        await sql<{ n: number }>`select count(*) as n from baton_schema_migrations`.execute(
          db.kysely,
        )
      ).rows[0]?.n;
    try {
      await sql`insert into nodes (uuid, driver, provision_state, version)
                values ('11111111-2222-3333-4444-555555555555', 'fake-hardware', 'enroll', '1.99')`.execute(
        db.kysely,
      );
      const before = await migrations();
      const upgrade = await runBaton(ROOT, [
        'db',
        'upgrade',
        '--service',
        'baremetal',
        '--db',
        url,
      ]);
      assert.equal(upgrade.status, 2, upgrade.output);
      assert.match(
        upgrade.output,
        /baton: error: The database is not compatible with this release of ironic \([\d.]+\)\. Please run "baton db online-migrations --service baremetal" using the previous release\./,
      );
      assert.equal(await migrations(), before);
    } finally {
      await db.close();
    }
  });
});
