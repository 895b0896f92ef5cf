/**
 * Choosing a transport is configuration: `rpc_transport = http | amqp`
 * (`local` for single-process runs and tests) and `rpc_transport_url`. The
 * same client and server code runs on each.
 *
 *   rpc_transport = http            rpc_transport_url = http://127.0.0.1:0   (listen address)
 *   rpc_transport = amqp            rpc_transport_url = amqp://guest:guest@127.0.0.1:5672/
 *   rpc_shared_secret (http, optional), rpc_exchange (amqp, default `baton`),
 *   amqp_durable_queues and amqp_auto_delete (amqp, oslo.messaging's, default false)
 */
import { RpcConfigError } from './errors.ts';
import type { RpcLogger } from './observer.ts';
import { AmqpTransport } from './transports/amqp-transport.ts';
import type { HttpRpcClientAuth, HttpRpcServerAuth } from './transports/http-rpc-auth.ts';
import { HttpTransport } from './transports/http-transport.ts';
import { LocalBus, LocalTransport } from './transports/local-transport.ts';
import type { RpcPeerDirectory } from './transports/peer-directory.ts';
import type { RpcTransport } from './transports/transport.ts';

export const RPC_TRANSPORTS = ['local', 'http', 'amqp'] as const;
/** The RPC transports: `local`, `http`, `amqp`. */
export type RpcTransportKind = (typeof RPC_TRANSPORTS)[number];

/** The embedded default: nothing to install. */
export const DEFAULT_RPC_TRANSPORT: RpcTransportKind = 'http';
export const DEFAULT_URLS: Readonly<Record<RpcTransportKind, string>> = {
  local: 'local:',
  http: 'http://127.0.0.1:0',
  amqp: 'amqp://guest:guest@127.0.0.1:5672/',
};

/** The `[DEFAULT]` RPC settings as read from the config file. */
export interface RpcSettings {
  readonly rpc_transport?: string;
  readonly rpc_transport_url?: string;
  readonly rpc_shared_secret?: string;
  readonly rpc_exchange?: string;
  readonly amqp_durable_queues?: string | boolean;
  readonly amqp_auto_delete?: string | boolean;
}

/** The RPC settings, checked. */
export interface RpcConfig {
  readonly transport: RpcTransportKind;
  readonly url: URL;
  readonly sharedSecret?: string;
  readonly exchange?: string;
  readonly durable?: boolean;
  readonly autoDelete?: boolean;
}

const PROTOCOLS: Readonly<Record<RpcTransportKind, readonly string[]>> = {
  local: ['local:'],
  http: ['http:'],
  amqp: ['amqp:', 'amqps:'],
};

/** Checks the RPC settings; throws on an unknown transport or a bad URL. */
export function readRpcConfig(settings: RpcSettings): RpcConfig {
  const name = settings.rpc_transport?.trim() || DEFAULT_RPC_TRANSPORT;
  if (!(RPC_TRANSPORTS as readonly string[]).includes(name))
    throw new RpcConfigError(`rpc_transport '${name}' is not one of ${RPC_TRANSPORTS.join(', ')}`);
  const transport = name as RpcTransportKind;
  const raw = settings.rpc_transport_url?.trim() || DEFAULT_URLS[transport];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RpcConfigError(`rpc_transport_url '${raw}' is not a URL`);
  }
  if (!PROTOCOLS[transport].includes(url.protocol))
    throw new RpcConfigError(
      `rpc_transport_url for ${transport} must start with ${PROTOCOLS[transport].join(' or ')}, got '${url.protocol}'`,
    );
  if (transport === 'http' && url.pathname !== '/' && url.pathname !== '')
    throw new RpcConfigError('rpc_transport_url for http is a listen address: http://host:port');
  const secret = settings.rpc_shared_secret;
  return {
    transport,
    url,
    ...(secret ? { sharedSecret: secret } : {}),
    ...(settings.rpc_exchange ? { exchange: settings.rpc_exchange } : {}),
    ...optionalFlag('durable', 'amqp_durable_queues', settings.amqp_durable_queues),
    ...optionalFlag('autoDelete', 'amqp_auto_delete', settings.amqp_auto_delete),
  };
}

/** oslo.config's boolean spellings. */
function optionalFlag<K extends string>(key: K, name: string, value: string | boolean | undefined) {
  if (value === undefined || value === '') return {};
  if (typeof value === 'boolean') return { [key]: value } as Record<K, boolean>;
  const word = value.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(word)) return { [key]: true } as Record<K, boolean>;
  if (['false', '0', 'off', 'no'].includes(word)) return { [key]: false } as Record<K, boolean>;
  throw new RpcConfigError(`${name} '${value}' is not true or false`);
}

/** What the transports need from the service. */
export interface TransportDeps {
  /** Where the http transport's servers announce themselves and are found (the service's root supplies it). */
  readonly peers?: RpcPeerDirectory;
  /** The local transport's bus (one per process by default). */
  readonly bus?: LocalBus;
  /** The service's logger, for what a transport reports (default: warnings on stderr). */
  readonly logger?: RpcLogger;
  /**
   * http: credentials this process sends and checks beside `rpc_shared_secret` (a Keystone
   * token: src/auth/rpc-auth.ts). amqp and local ignore them (the broker authenticates).
   */
  readonly clientAuth?: HttpRpcClientAuth;
  readonly serverAuth?: HttpRpcServerAuth;
  /** http: how long a stopping server serves on after withdrawing (HttpTransportOptions). */
  readonly stopGraceMs?: number;
}

let processBus: LocalBus | undefined;

/** Makes the transport the config names. */
export function createTransport(config: RpcConfig, deps: TransportDeps = {}): RpcTransport {
  switch (config.transport) {
    case 'local':
      processBus ??= new LocalBus();
      return new LocalTransport(deps.bus ?? processBus);
    case 'http': {
      if (deps.peers === undefined)
        throw new RpcConfigError(
          'the http transport needs a peer directory (the services table, in a service)',
        );
      const host = config.url.hostname.replace(/^\[(.*)\]$/, '$1');
      return new HttpTransport({
        peers: deps.peers,
        host,
        port: config.url.port === '' ? 0 : Number(config.url.port),
        ...(config.sharedSecret === undefined ? {} : { sharedSecret: config.sharedSecret }),
        ...(deps.clientAuth === undefined ? {} : { clientAuth: deps.clientAuth }),
        ...(deps.serverAuth === undefined ? {} : { serverAuth: deps.serverAuth }),
        ...(deps.logger === undefined ? {} : { logger: deps.logger }),
        ...(deps.stopGraceMs === undefined ? {} : { stopGraceMs: deps.stopGraceMs }),
      });
    }
    case 'amqp':
      return new AmqpTransport({
        url: config.url.toString(),
        ...(config.exchange === undefined ? {} : { exchange: config.exchange }),
        ...(config.durable === undefined ? {} : { durable: config.durable }),
        ...(config.autoDelete === undefined ? {} : { autoDelete: config.autoDelete }),
        ...(deps.logger === undefined ? {} : { logger: deps.logger }),
      });
  }
}
