/**
 * The config options of a process's logs, health check and metrics, as data every service
 * appends to its own list (Placement's PLACEMENT_OPTIONS, the bare metal service's), so each
 * gets the same `[DEFAULT]`, `[healthcheck]` and `[metrics]` options, the same flags and the
 * same sample lines. oslo.log's and oslo.middleware's names where they have one (`debug`,
 * `use_json`, `log_file`, `log_dir`, `disable_by_file_path`); Baton's own otherwise. The
 * fields are those of OperationsConfig. Pure.
 */
import { ConfigFileError, toBoolean } from './config-ini.ts';
import {
  BOOLEAN,
  type ConfigOption,
  integer,
  type OptionType,
  PORT,
  STRING,
} from './config-options.ts';
import {
  LOG_FORMATS,
  LOG_LEVELS,
  type LogLevel,
  LogSettingsError,
  parseLogLevel,
} from './logging/log-settings.ts';
import type { OperationsConfig } from './operations-config.ts';

/** A path kept as written: oslo.log finds a relative log_file under log_dir, else the cwd. */
const LOG_PATH: OptionType<string | undefined> = {
  ...STRING,
  parse: (text) => (text === '' ? undefined : text),
  format: (value) => value ?? '',
  metavar: 'path',
} as OptionType<string | undefined>;

/**
 * `use_json`: a boolean in the file (oslo.log's), given on the command line as
 * `--log-format json|text`; the file may say `json` or `text` too.
 */
const USE_JSON: OptionType<boolean> = {
  name: 'boolean value',
  parse: (text, option) => {
    const word = text.trim().toLowerCase();
    if ((LOG_FORMATS as readonly string[]).includes(word)) return word === 'json';
    try {
      return toBoolean(option, text);
    } catch {
      throw new ConfigFileError(`${option}: '${text}' is not json, text or a boolean (true/false)`);
    }
  },
  format: (value) => (value ? 'true' : 'false'),
  flag: 'value',
  metavar: 'json|text',
  notes: ['On the command line (--log-format): json (true) or text (false)'],
};

/** A level name, or empty: the level then follows `debug`. */
const LOG_LEVEL: OptionType<LogLevel | undefined> = {
  name: 'string value',
  parse: (text, option) => {
    if (text.trim() === '') return undefined;
    try {
      return parseLogLevel(text, option);
    } catch (error) {
      if (error instanceof LogSettingsError) throw new ConfigFileError(error.message);
      throw error;
    }
  },
  format: (value) => value ?? '',
  flag: 'value',
  metavar: 'level',
  notes: ['Possible values:', ...LOG_LEVELS],
};

const SECONDS = (min: number, max: number): OptionType<number> => ({
  ...integer(min, max),
  metavar: 'seconds',
});

function option(
  section: string,
  name: string,
  field: keyof OperationsConfig,
  help: string,
  type: OptionType<unknown>,
  extra: Pick<ConfigOption, 'flag' | 'defaultText'> = {},
): ConfigOption {
  return { section, name, field, help, type: type as OptionType, ...extra };
}

/** The operations options every service reads (logging, metrics, health check). */
export const OPERATIONS_OPTIONS: readonly ConfigOption[] = [
  option(
    'DEFAULT',
    'debug',
    'debug',
    'Log at debug level (unless log_level says otherwise).',
    BOOLEAN,
  ),
  option(
    'DEFAULT',
    'log_level',
    'logLevel',
    "The log level; empty: debug when debug is set, else info (Baton's option).",
    LOG_LEVEL,
  ),
  option('DEFAULT', 'use_json', 'useJson', 'Log JSON lines instead of text.', USE_JSON, {
    flag: 'log-format',
  }),
  option(
    'DEFAULT',
    'log_file',
    'logFile',
    'Append the log to this file instead of writing it to stderr; a relative path is under log_dir, else the working directory.',
    LOG_PATH,
  ),
  option('DEFAULT', 'log_dir', 'logDir', 'The directory of a relative log_file.', LOG_PATH),
  option(
    'healthcheck',
    'disable_by_file_path',
    'healthcheckDisableByFilePath',
    '/healthcheck answers 503 DISABLED BY FILE while this file exists (take a process out of its balancer).',
    LOG_PATH,
    { flag: 'healthcheck-disable-by-file-path' },
  ),
  option(
    'DEFAULT',
    'graceful_shutdown_timeout',
    'gracefulShutdownTimeout',
    'Seconds the work in flight may take once a stopping process has stopped accepting (an API: after drain_delay; the bare metal conductor: from the signal); past it, an API cuts its requests and exits non-zero. 0: no limit for an API.',
    SECONDS(0, 2147483647),
  ),
  option(
    'healthcheck',
    'drain_delay',
    'drainDelaySeconds',
    "After SIGTERM, seconds /healthcheck answers 503 DRAINING while the process still serves, before it stops accepting connections (Baton's option).",
    SECONDS(0, 3600),
  ),
  option('metrics', 'enabled', 'metricsEnabled', 'Count, and answer /metrics.', BOOLEAN, {
    flag: 'metrics',
  }),
  option(
    'metrics',
    'bind_host',
    'metricsHost',
    'Address of the metrics listener (bind_port).',
    { ...STRING, metavar: 'address' },
    { flag: 'metrics-host' },
  ),
  option(
    'metrics',
    'bind_port',
    'metricsPort',
    'A metrics listener on this port, for a process without an HTTP API or for a pool of workers (one scrape for all); unset: none.',
    PORT,
    { flag: 'metrics-port' },
  ),
  option(
    'metrics',
    'refresh_interval',
    'metricsRefreshSeconds',
    'Seconds between reads of the services table for the deployment gauges.',
    SECONDS(1, 3600),
    { flag: 'metrics-refresh-interval' },
  ),
  option(
    'oslo_middleware',
    'max_request_body_size',
    'maxRequestBodySize',
    "Bytes of a request body read at most: a larger body is answered 413 as soon as it passes the limit (oslo.middleware's name; its 114688 is too small for a big POST /allocations or reshape, see docs/security.md).",
    { ...integer(1024, 2 ** 31 - 1), metavar: 'bytes' },
    { flag: 'max-request-body-size' },
  ),
  option(
    'DEFAULT',
    'request_receive_timeout',
    'requestReceiveTimeout',
    "Seconds a client may take to send a whole request, its head and body; a slower one is answered 408 and its connection closed (Baton's option). 0: no limit (a client trickling its body then holds its connection for ever).",
    SECONDS(0, 86400),
  ),
  option(
    'DEFAULT',
    'client_socket_timeout',
    'clientSocketTimeout',
    "Seconds a client connection may stay silent before it is closed (oslo.service's option). 0: no limit.",
    SECONDS(0, 86400),
  ),
  option(
    'DEFAULT',
    'max_client_connections',
    'maxClientConnections',
    "Client connections an API holds at once; past it, the oldest connection still sending its request or idle is closed to make room for the new one (one being answered never is), so slow clients cannot keep others out (Baton's option).",
    { ...integer(1, 1_000_000), metavar: 'count' },
  ),
];
