/**
 * The bare metal reference service as the rehearsal sees it: `baton baremetal api|conductor`
 * with an ironic.conf each, `baton db …` for the database, the node and port load of
 * load-generator.ts and the data check of data-check.ts.
 */
import { join } from 'node:path';
import { processConfigText } from './cluster-config.ts';
import { checkData } from './data-check.ts';
import { nodeRows, portRows, versionCounts } from './database-snapshot.ts';
import { Ledger } from './ledger.ts';
import { LoadGenerator, SHARD_MICROVERSION } from './load-generator.ts';
import type { RehearsedService } from './rehearsed-service.ts';

/** The bare metal load keeps its ledger: what the data check compares the rows with. */
export interface BaremetalLoad extends LoadGenerator {
  readonly ledger: Ledger;
}

const baton = (root: string) => join(root, 'bin/baton.mjs');

export const BAREMETAL_REHEARSAL: RehearsedService<BaremetalLoad> = {
  name: 'baremetal',
  workerTier: 'conductor',
  configText: (settings) =>
    processConfigText({
      host: settings.host,
      databaseUrl: settings.databaseUrl,
      rpc: settings.rpc,
      amqpUrl: settings.amqpUrl,
      exchange: settings.exchange,
      pin: settings.pin,
      metricsPort: settings.metricsPort,
      logFile: settings.logFile,
      ...(settings.apiPort === undefined ? {} : { apiPort: settings.apiPort }),
      ...(settings.drainWait === undefined ? {} : { drainWait: settings.drainWait }),
    }),
  launch: (root, tier, configFile) => ({
    args: [baton(root), 'baremetal', tier, '--config-file', configFile],
    ready: tier === 'api' ? /listening on/ : /serving topic/,
  }),
  databaseCommand: (root, command, databaseUrl, previousRelease) => {
    const words = {
      'db-upgrade': ['db', 'upgrade'],
      'online-migrations': ['db', 'online-migrations'],
      'upgrade-check': ['upgrade-check'],
      'downgrade-rows': ['db', 'downgrade-rows', '--to', previousRelease],
      plan: ['upgrade', 'plan', '--json'],
    }[command];
    return { args: [baton(root), ...words, '--service', 'baremetal', '--db', databaseUrl] };
  },
  microversionHeader: 'X-OpenStack-Ironic-API-Version',
  defaultMicroversion: '1.80',
  newReleaseMicroversion: SHARD_MICROVERSION,
  objectsShown: ['Node', 'Port'],
  binaryPrefix: 'baremetal',
  createLoad: (settings) => {
    const ledger = new Ledger();
    const load = new LoadGenerator({ ...settings, ledger });
    return Object.assign(load, { ledger });
  },
  versionCounts,
  checkData: async (db, load) => checkData(load.ledger, await nodeRows(db), await portRows(db)),
};
