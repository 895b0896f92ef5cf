/**
 * The operator's commands, one per step of the rolling upgrade that touches the database:
 *
 *   manage.ts db-upgrade --db URL         the schema (expand; held-back steps wait, see below)
 *   manage.ts online-migrations --db URL  exit 0 done, 1 more to do (run again), 2 failed
 *   manage.ts upgrade-check --db URL      exit 0 when the upgrade is complete
 */
import {
  checkSchema,
  ensureServicesTable,
  findPendingOnlineMigrations,
  MigrationBlockedError,
  migrateToLatest,
  onlineMigrationsVerdict,
  openDatabase,
  runOnlineMigrations,
} from 'baton/db';
import { ONLINE_MIGRATIONS } from './online-migrations.ts';
import { MIGRATIONS } from './schema.ts';

const [command] = process.argv.slice(2);
const url = process.argv[process.argv.indexOf('--db') + 1];
if (!process.argv.includes('--db') || url === undefined) {
  console.error('usage: manage.ts db-upgrade|online-migrations|upgrade-check --db URL');
  process.exit(64);
}
const db = await openDatabase(url);
let status = 0;
try {
  if (command === 'db-upgrade') {
    await ensureServicesTable(db);
    const result = await migrateToLatest(db, MIGRATIONS);
    for (const applied of result.applied) console.log(`applied ${applied.id}`);
    if (result.error instanceof MigrationBlockedError) {
      // Not a failure: a migration that needs the online migrations done first waits for the
      // next `db-upgrade`, after them. Everything before it is applied.
      console.log(`held back: ${result.error.message}`);
    } else if (result.error !== undefined) {
      console.error(result.error.message);
      status = 1;
    }
  } else if (command === 'online-migrations') {
    const report = await runOnlineMigrations(db, ONLINE_MIGRATIONS);
    console.log(onlineMigrationsVerdict(report));
    status = report.exitStatus;
  } else if (command === 'upgrade-check') {
    const schema = await checkSchema(db, MIGRATIONS);
    const pending = (await findPendingOnlineMigrations(db, ONLINE_MIGRATIONS)).filter(
      (migration) => migration.pending !== 0,
    );
    console.log(`schema: ${schema.state}; online migrations left: ${pending.length}`);
    status = schema.state === 'current' && pending.length === 0 ? 0 : 1;
  } else {
    console.error(`unknown command '${command}'`);
    status = 64;
  }
} finally {
  await db.close();
}
process.exit(status);
