/**
 * SIGHUP in a running process (issue 15 §2, the service-version spec): the settings planned again from the
 * config file replace the log level (`[DEFAULT] debug`, `--log-level`), the options that
 * cannot change live are logged as needing a restart (the pin among them: the API's
 * microversion range is fixed at start), and the deployment is read again from the services
 * table so the caps in force and the metrics follow the oldest live release. The log file, if
 * any, is opened again (logrotate's convention). Requests in flight are not touched: nothing
 * is closed or rebuilt.
 */
import type { CapsInForce } from '../releases/index.ts';
import { changedSettings, settingsNeedingRestart } from './config-reload.ts';
import type { LiveDeployment } from './live-deployment.ts';
import { type LoggingConfig, type LogLevel, logSettingsOf } from './logging/log-settings.ts';
import type { ServiceLogger } from './logging/service-logger.ts';
import type { ServicesWatch } from './services-watch.ts';

/** The process a reload changes. */
export interface ReloadTarget {
  readonly log: ServiceLogger;
  /** The deployment the process follows (its caps). */
  readonly deployment: LiveDeployment;
  /** The services watch behind the deployment gauges, read again too. */
  readonly watch?: ServicesWatch | undefined;
  /** Loggers made before the reload (children keep their level): set too. */
  readonly childLoggers?: readonly unknown[];
}

/** What a reload starts from: the settings in force and the ones read now. */
export interface ReloadInput {
  /** The settings the process runs with, and the ones planned now from the file and flags. */
  readonly before: unknown;
  readonly after: unknown;
  /** Paths of `before`/`after` that change live (the logging options). */
  readonly mutable: readonly string[];
  /** The logging options of `after`. */
  readonly logging: LoggingConfig;
  /** The pin before and after (a changed pin needs a restart). */
  readonly pinBefore: string | undefined;
  readonly pinAfter: string | undefined;
}

/** What a reload changed. */
export interface ReloadReport {
  readonly level: LogLevel;
  readonly needRestart: readonly string[];
  readonly caps: CapsInForce;
  readonly capsChanged: boolean;
}

/** The logging options' paths within a settings object (`operations.` for the bare metal one). */
export function loggingPaths(prefix = ''): string[] {
  return ['debug', 'logLevel'].map((name) => `${prefix}${name}`);
}

/** Applies the settings that may change without a restart, and says which need one. */
export async function reloadProcess(
  target: ReloadTarget,
  input: ReloadInput,
): Promise<ReloadReport> {
  const logger = target.log.logger;
  // A log file moved away by logrotate: write to a new one at the configured path.
  if (target.log.settings.file !== undefined) target.log.reopen();
  const level = logSettingsOf(input.logging).level;
  const previous = logger.level;
  target.log.setLevel(level);
  for (const child of target.childLoggers ?? []) {
    if (typeof child === 'object' && child !== null && 'level' in child) {
      (child as { level: string }).level = level;
    }
  }
  logger.info({ log_level: level, was: previous }, `SIGHUP: log level ${level}`);
  const needRestart = settingsNeedingRestart(
    changedSettings(input.before, input.after),
    input.mutable,
  );
  if ((input.pinBefore ?? '') !== (input.pinAfter ?? '')) needRestart.push('pin_release_version');
  if (needRestart.length > 0) {
    logger.warn(
      { need_restart: needRestart },
      `SIGHUP: changed options that take effect only after a restart: ${needRestart.join(', ')}`,
    );
  }
  await target.watch?.refresh();
  const { caps, changed } = await target.deployment.refresh();
  return { level, needRestart, caps, capsChanged: changed };
}
