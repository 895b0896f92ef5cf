// A program another team could write against the installed package: it imports only the
// package's entry points (`baton/<module>`), never a path inside it. The scratch-install test
// copies it into a project outside the repository, type-checks it there against the package's
// .d.ts files and runs it; it prints one JSON line the test reads.
import { openDatabase } from 'baton/db';
import {
  formatVersion,
  highestCommonVersion,
  parseVersion,
  VersionNegotiator,
  VersionServerError,
} from 'baton/microversion';
import { convertForWire, defineObjectType, f, toPrimitive } from 'baton/objects';
import { MASTER, type ReleaseMapping, ReleasePin } from 'baton/releases';

// A versioned object with two versions: 1.1 adds `size`.
const Volume = defineObjectType({
  name: 'Volume',
  namespace: { project: 'scratch', serial: 'scratch_object' },
  fields: { id: f.integer(), name: f.string(), size: f.integer({ nullable: true }) },
  history: [
    { version: '1.0', note: 'Initial version' },
    { version: '1.1', note: 'Add size', added: ['size'] },
  ],
});

// Two releases: `one` knows Volume 1.0, the code (`master`) knows 1.1.
const mapping: ReleaseMapping = {
  one: { api: '1.1', rpc: '1.0', objects: { Volume: ['1.0'] } },
  [MASTER]: { api: '1.2', rpc: '1.1', objects: { Volume: ['1.0', '1.1'] } },
};
const pin = ReleasePin.resolve(mapping, 'one');
const target = pin.objectVersion('Volume', Volume.version);
const volume = Volume.create({ id: 1, name: 'data', size: 10 });
const sent = toPrimitive(convertForWire(volume, target));

// A client that speaks 1.0 to 1.5 meets a server of 1.0 to 1.2, then a server of 1.0 to
// 1.2, pinned to `one` (1.1), answers a request for `latest`.
const common = highestCommonVersion(
  { min: parseVersion('1.0'), max: parseVersion('1.5') },
  { min: parseVersion('1.0'), max: parseVersion(pin.apiMaxVersion('1.2')) },
);
const negotiator = new VersionNegotiator({
  serviceType: 'scratch',
  min: '1.0',
  max: '1.2',
  pinnedMax: pin.apiMaxVersion('1.2'),
  headers: { mode: 'new' },
  malformedStatus: 400,
  formatError: (report) => ({ error: report.detail }),
});
const answer = negotiator.resolve({ 'openstack-api-version': 'scratch latest' });
if (answer instanceof VersionServerError) throw answer;

// A SQLite database opened through the db entry point.
const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: main.js <folder for the database>');
const db = await openDatabase(`sqlite:${dir}/scratch.sqlite`);
await db.kysely.schema.createTable('volumes').addColumn('id', 'integer').execute();
await db.kysely.insertInto('volumes').values({ id: 1 }).execute();
const rows = await db.kysely.selectFrom('volumes').selectAll().execute();
await db.close();

process.stdout.write(
  `${JSON.stringify({
    pinnedVersion: target,
    sentVersion: sent['scratch_object.version'],
    sentFields: Object.keys(sent['scratch_object.data'] as object).sort(),
    common: common === undefined ? null : formatVersion(common),
    resolved: answer.text,
    backend: db.url.backend,
    rows,
  })}\n`,
);
