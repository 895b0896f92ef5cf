/**
 * A process's settings, from the INI file named by `--config-file` (oslo.config's dialect,
 * which the toolkit reads): who the process is, its database, its RPC transport, its pin.
 */
import { readFileSync } from 'node:fs';
import { type RpcConfig, readRpcConfig } from 'baton/rpc';
import { parseIni } from 'baton/service';

export interface LeasesConfig {
  /** Distinct per process: its row in the services table. */
  readonly host: string;
  readonly databaseUrl: string;
  /** The release the process is pinned to; undefined: its own versions. */
  readonly pin: string | undefined;
  readonly rpc: RpcConfig;
  /** API processes: where they listen. */
  readonly apiPort: number;
  /** API processes: seconds of failing health check before a stopping API closes its port. */
  readonly drainWaitSeconds: number;
}

export function readConfig(argv: readonly string[]): LeasesConfig {
  const at = argv.indexOf('--config-file');
  const path = at === -1 ? undefined : argv[at + 1];
  if (path === undefined) throw new Error('usage: --config-file <path>');
  const ini = parseIni(readFileSync(path, 'utf8'));
  const value = (section: string, key: string) => ini.get(section)?.get(key)?.trim() || undefined;
  const databaseUrl = value('database', 'connection');
  if (databaseUrl === undefined) throw new Error(`${path}: no [database] connection`);
  const exchange = value('DEFAULT', 'rpc_exchange');
  return {
    host: value('DEFAULT', 'host') ?? 'localhost',
    databaseUrl,
    pin: value('DEFAULT', 'pin_release_version'),
    rpc: readRpcConfig({
      rpc_transport: value('DEFAULT', 'rpc_transport') ?? 'http',
      ...(value('DEFAULT', 'rpc_transport_url') === undefined
        ? {}
        : { rpc_transport_url: value('DEFAULT', 'rpc_transport_url') }),
      ...(exchange === undefined ? {} : { rpc_exchange: exchange }),
    }),
    apiPort: Number(value('api', 'port') ?? 6400),
    drainWaitSeconds: Number(value('api', 'drain_wait') ?? 0),
  };
}
