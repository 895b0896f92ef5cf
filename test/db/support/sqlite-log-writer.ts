/**
 * A second process writing to a SQLite file, as a service would while
 * another process holds or keeps taking the write lock. Commands come from
 * the parent over IPC, answers go back the same way:
 *
 * - `{ hold: true, forMs? }`: takes the write lock (BEGIN IMMEDIATE), inserts
 *   a `holder` row into `log`, answers `held`, and commits after `forMs` or
 *   on `{ release: true }`.
 * - `{ writeUntilDone: true }`: inserts a `writer` row into `log` about once
 *   a millisecond until a `done` row appears, then answers `{ writes }`.
 *
 * Argument: the database URL. Answers `ready` once open.
 */
import { sql } from 'kysely';
import { openDatabase } from '../../../src/db/index.ts';

const url = process.argv[2];
if (url === undefined) throw new Error('usage: sqlite-log-writer <url>');
const db = await openDatabase(url);
const send = (message: unknown) => process.send?.(message);
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

async function writeUntilDone(): Promise<number> {
  let writes = 0;
  for (;;) {
    await sql`insert into log (who) values ('writer')`.execute(db.kysely);
    writes++;
    const done = await sql`select 1 from log where who = 'done'`.execute(db.kysely);
    if (done.rows.length > 0) return writes;
    await pause();
  }
}

let release: (() => void) | undefined;
interface Command {
  hold?: true;
  forMs?: number;
  release?: true;
  writeUntilDone?: true;
}
process.on('message', async (message: Command) => {
  if (message.hold) {
    await db.kysely.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      await sql`insert into log (who) values ('holder')`.execute(connection);
      await new Promise<void>((resolve) => {
        release = resolve;
        if (message.forMs !== undefined) setTimeout(resolve, message.forMs);
        send('held');
      });
      await sql`commit`.execute(connection);
    });
  } else if (message.release) {
    release?.();
  } else if (message.writeUntilDone) {
    send({ writes: await writeUntilDone() });
  }
});
process.on('disconnect', () => {
  db.close().then(() => process.exit(0));
});
send('ready');
