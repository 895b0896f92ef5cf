/**
 * The files a rehearsal writes for its cluster: one ironic.conf per process and the HAProxy
 * configuration in front of the API processes. Pure: returns the text.
 */

export interface ProcessConfig {
  /** `[DEFAULT] host`: distinct per process, so every process has its own services-table row. */
  readonly host: string;
  readonly databaseUrl: string;
  readonly rpc: 'http' | 'amqp';
  /** With amqp: the broker, and an exchange of the rehearsal's own. */
  readonly amqpUrl?: string;
  readonly exchange?: string;
  /** Empty: unpinned. */
  readonly pin: string;
  /** Where `/metrics` answers (the caps in force are read there). */
  readonly metricsPort: number;
  /** API processes only. */
  readonly apiPort?: number;
  /** Seconds of failed health check before an API stops accepting: above the balancer's detection time. */
  readonly drainWait?: number;
  readonly logFile: string;
}

export function processConfigText(config: ProcessConfig): string {
  const lines = [
    '[DEFAULT]',
    `host = ${config.host}`,
    `pin_release_version = ${config.pin}`,
    `rpc_transport = ${config.rpc}`,
    `log_file = ${config.logFile}`,
    // The APIs' hash rings are rebuilt every 2 s, not 15: a stopping conductor serves on for
    // this long (and a second) after going offline, so each conductor step would otherwise
    // spend 16 s waiting. The hand-over is the same, only shorter.
    'hash_ring_reset_interval = 2',
  ];
  if (config.rpc === 'amqp') {
    lines.push(`rpc_transport_url = ${config.amqpUrl}`, `rpc_exchange = ${config.exchange}`);
  }
  lines.push('', '[database]', `connection = ${config.databaseUrl}`);
  lines.push('', '[api]', 'host_ip = 127.0.0.1');
  if (config.apiPort !== undefined) lines.push(`port = ${config.apiPort}`);
  // zed knows only `[api] drain_wait`; later releases read it as the deprecated name of
  // `[healthcheck] drain_delay`, so one config file serves both releases.
  if (config.drainWait !== undefined) lines.push(`drain_wait = ${config.drainWait}`);
  // A new conductor shows up in the others' rings within two seconds.
  lines.push('', '[conductor]', 'heartbeat_interval = 2');
  lines.push('', '[metrics]', 'bind_host = 127.0.0.1', `bind_port = ${config.metricsPort}`);
  return `${lines.join('\n')}\n`;
}

/** How fast HAProxy notices a draining API: `inter` ms between checks, `fall` failures. */
export interface HealthCheckTiming {
  readonly interMs: number;
  readonly fall: number;
  readonly rise: number;
}

export const HEALTH_CHECK: HealthCheckTiming = { interMs: 500, fall: 2, rise: 2 };

/**
 * How long a health check may take before it counts as failed: long, so that an API slow
 * under load is not taken out (with both out, HAProxy answers 503 itself); a draining API
 * answers its 503 at once.
 */
export const CHECK_TIMEOUT_MS = 5_000;

/** The longest a draining API can still be sent new requests, in seconds. */
export function detectionSeconds(timing: HealthCheckTiming): number {
  return (timing.interMs * (timing.fall + 1)) / 1000;
}

export interface BalancerConfig {
  readonly frontendPort: number;
  readonly apis: readonly { readonly name: string; readonly port: number }[];
  /** The admin socket the rehearsal reads the servers' states from. */
  readonly statsSocket: string;
  readonly timing?: HealthCheckTiming;
}

export function haproxyConfigText(config: BalancerConfig): string {
  const timing = config.timing ?? HEALTH_CHECK;
  return `${[
    'global',
    `    stats socket ${config.statsSocket} mode 600 level admin`,
    '    maxconn 2000',
    '',
    'defaults',
    '    mode http',
    '    timeout connect 2s',
    '    timeout client 60s',
    '    timeout server 60s',
    `    timeout check ${CHECK_TIMEOUT_MS}ms`,
    // A new connection to the API for every request: a connection the API closes while
    // draining is never reused for the next request.
    '    option http-server-close',
    '',
    'frontend ironic',
    `    bind 127.0.0.1:${config.frontendPort}`,
    '    default_backend ironic-api',
    '',
    'backend ironic-api',
    '    balance roundrobin',
    '    option httpchk',
    '    http-check send meth GET uri /healthcheck',
    '    http-check expect status 200',
    // A connection refused (the API already gone) goes to the other server; a request that
    // reached an API is never sent twice.
    '    retries 2',
    '    option redispatch',
    `    default-server inter ${timing.interMs}ms fastinter ${timing.interMs}ms downinter ${timing.interMs}ms fall ${timing.fall} rise ${timing.rise}`,
    ...config.apis.map((api) => `    server ${api.name} 127.0.0.1:${api.port} check`),
  ].join('\n')}\n`;
}

/** One server's line of HAProxy's `show stat` CSV: its backend, name and status (UP, DOWN …). */
export interface BalancerServerState {
  readonly backend: string;
  readonly server: string;
  readonly status: string;
}

export function parseShowStat(csv: string): BalancerServerState[] {
  const lines = csv.split('\n').filter((line) => line.trim() !== '');
  const header = (lines[0] ?? '').replace(/^# /, '').split(',');
  const at = (name: string) => header.indexOf(name);
  const [pxname, svname, status] = [at('pxname'), at('svname'), at('status')];
  return lines
    .slice(1)
    .map((line) => line.split(','))
    .filter((cells) => cells[svname] !== 'FRONTEND' && cells[svname] !== 'BACKEND')
    .map((cells) => ({
      backend: cells[pxname] ?? '',
      server: cells[svname] ?? '',
      status: cells[status] ?? '',
    }));
}
