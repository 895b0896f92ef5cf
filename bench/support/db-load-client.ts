/**
 * A second process that keeps using a table while a migration runs: each
 * iteration reads one random row and updates another (a column the
 * migration does not touch), recording each operation's latency. It stops
 * when its parent says so and reports p50/p99/max in milliseconds.
 */
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/index.ts';

const [url, table, rowsText] = process.argv.slice(2);
if (url === undefined || table === undefined || rowsText === undefined) {
  throw new Error('usage: db-load-client <url> <table> <rows>');
}
const rows = Number(rowsText);
const db = await openDatabase(url, { poolSize: 2 });
const latencies: number[] = [];
let running = true;
process.on('message', (message) => {
  if (message === 'stop') running = false;
});

async function timed(work: () => Promise<unknown>): Promise<void> {
  const start = process.hrtime.bigint();
  await work();
  latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
}

process.send?.('ready');
const started = Date.now();
while (running && Date.now() - started < 600_000) {
  const id = 1 + Math.floor(Math.random() * rows);
  await timed(() =>
    sql`select id, extra, version from ${sql.table(table)} where id = ${id}`.execute(db.kysely),
  );
  const other = 1 + Math.floor(Math.random() * rows);
  await timed(() =>
    sql`update ${sql.table(table)} set touched = touched + 1 where id = ${other}`.execute(
      db.kysely,
    ),
  );
  // A steady load, not a saturating one: about 200 operations per second.
  await new Promise((resolve) => setTimeout(resolve, 10));
}
await db.close();
latencies.sort((a, b) => a - b);
const at = (q: number): number =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.send?.(
  { operations: latencies.length, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? 0 },
  // The open IPC channel would keep both this process and the bench alive.
  () => process.disconnect(),
);
