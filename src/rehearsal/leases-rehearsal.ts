/**
 * The example leases service (examples/leases) as the rehearsal sees it: its API and worker
 * processes and its database commands are the example's own TypeScript files, run with tsx
 * from the build's folder (where `baton/*` resolves to that build's package); its load is
 * leases-load.ts, its data check leases-data-check.ts.
 */
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { checkLeases, type LeaseRow } from './leases-data-check.ts';
import { LEASES_VERSION_HEADER, LeasesLoad, POOL_MICROVERSION } from './leases-load.ts';
import type { ProcessSettings, RehearsedService } from './rehearsed-service.ts';

/** The Lease version of the new release: every row is at it once the online migrations ran. */
const LATEST_LEASE = '1.1';

const script = (root: string, name: string) => join(root, 'examples/leases/src', name);

/** A process's config file, in the INI the example reads (examples/leases/src/config.ts). */
export function leasesConfigText(settings: ProcessSettings): string {
  const lines = [
    '[DEFAULT]',
    `host = ${settings.host}`,
    `pin_release_version = ${settings.pin}`,
    `rpc_transport = ${settings.rpc}`,
  ];
  if (settings.rpc === 'amqp') {
    lines.push(`rpc_transport_url = ${settings.amqpUrl}`, `rpc_exchange = ${settings.exchange}`);
  }
  lines.push('', '[database]', `connection = ${settings.databaseUrl}`);
  if (settings.apiPort !== undefined) {
    lines.push(
      '',
      '[api]',
      `port = ${settings.apiPort}`,
      `drain_wait = ${settings.drainWait ?? 0}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function leaseRows(db: Database): Promise<LeaseRow[]> {
  const result = await sql<LeaseRow>`
    select uuid, resource, holder, pool, version from leases`.execute(db.kysely);
  return result.rows;
}

export const LEASES_REHEARSAL: RehearsedService<LeasesLoad> = {
  name: 'leases',
  workerTier: 'worker',
  configText: leasesConfigText,
  launch: (root, tier, configFile) => ({
    args: ['--import', 'tsx', script(root, tier === 'api' ? 'api.ts' : 'worker.ts')].concat([
      '--config-file',
      configFile,
    ]),
    // `--import tsx` and the example's `baton/*` imports resolve from the build's folder.
    cwd: root,
    ready: tier === 'api' ? /listening on/ : /serving topic/,
  }),
  databaseCommand: (root, command, databaseUrl) =>
    command === 'db-upgrade' || command === 'online-migrations' || command === 'upgrade-check'
      ? {
          args: ['--import', 'tsx', script(root, 'manage.ts'), command, '--db', databaseUrl],
          cwd: root,
        }
      : undefined,
  contractAfterOnlineMigrations: true,
  microversionHeader: LEASES_VERSION_HEADER,
  defaultMicroversion: '1.0',
  newReleaseMicroversion: POOL_MICROVERSION,
  objectsShown: ['Lease'],
  binaryPrefix: 'leases',
  createLoad: (settings) => new LeasesLoad(settings),
  versionCounts: async (db) => {
    const result = await sql<{ version: string; n: number | string }>`
      select version, count(*) as n from leases group by version order by version`.execute(
      db.kysely,
    );
    return { Lease: Object.fromEntries(result.rows.map((row) => [row.version, Number(row.n)])) };
  },
  checkData: async (db, load) => checkLeases(load.ledger, await leaseRows(db), LATEST_LEASE),
};
