/**
 * Where a process logs, at which level and in which format, from the options oslo.log gives
 * an OpenStack service (`[DEFAULT] debug`, `use_json`, `log_file`, `log_dir`) and Baton's
 * flags (`--log-level`, `--log-format`, `--log-file`); a flag wins over the file. Pure.
 */
import { isAbsolute, join } from 'node:path';

/** The log levels. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The log formats. */
export const LOG_FORMATS = ['text', 'json'] as const;
/** A log format. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The logging options of a service's settings, as its config file and flags set them. */
export interface LoggingConfig {
  /** `[DEFAULT] debug` (`--debug`): log at debug level unless a level is given. */
  readonly debug: boolean;
  /** `--log-level`: wins over `debug`. */
  readonly logLevel?: LogLevel | undefined;
  /** `[DEFAULT] use_json` (oslo.log's); `--log-format json|text` sets it. */
  readonly useJson: boolean;
  /** `[DEFAULT] log_file` (`--log-file`): append there instead of writing to stderr. */
  readonly logFile?: string | undefined;
  /** `[DEFAULT] log_dir`: the directory of a relative `log_file`. */
  readonly logDir?: string | undefined;
}

/** The logging settings when none are given. */
export const DEFAULT_LOGGING: LoggingConfig = {
  debug: false,
  logLevel: undefined,
  useJson: false,
  logFile: undefined,
  logDir: undefined,
};

/** What the logger is built from. */
export interface LogSettings {
  readonly level: LogLevel;
  readonly format: LogFormat;
  /** An absolute or working-directory-relative path; undefined: stderr. */
  readonly file: string | undefined;
}

/** A log level or format that is not known. */
export class LogSettingsError extends Error {
  override name = 'LogSettingsError';
}

/** A log level from its text. */
export function parseLogLevel(value: string, option = '--log-level'): LogLevel {
  const level = value.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new LogSettingsError(`${option} must be one of ${LOG_LEVELS.join(', ')}, not '${value}'`);
}

/** A log format from its text. */
export function parseLogFormat(value: string, option = '--log-format'): LogFormat {
  const format = value.trim().toLowerCase();
  if ((LOG_FORMATS as readonly string[]).includes(format)) return format as LogFormat;
  throw new LogSettingsError(`${option} must be one of ${LOG_FORMATS.join(', ')}, not '${value}'`);
}

/** The logger's settings from the logging config. */
export function logSettingsOf(config: LoggingConfig): LogSettings {
  const level = config.logLevel ?? (config.debug ? 'debug' : 'info');
  const format: LogFormat = config.useJson ? 'json' : 'text';
  const name = config.logFile?.trim() || undefined;
  const file =
    name === undefined || isAbsolute(name) || !config.logDir ? name : join(config.logDir, name);
  return { level, format, file };
}
