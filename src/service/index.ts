/** What a service is to the toolkit, and how a process of it starts and stops. */
export { type PinSetting, pinReleaseVersion, resolveCapsInForce } from './caps-at-start.ts';
export {
  type CodeTables,
  type CodeVersions,
  codeVersionsOf,
  masterReleaseOf,
} from './code-versions.ts';
export type { ConfigProject } from './config-files.ts';
export {
  ConfigFileError,
  type IniSections,
  normalizeDatabaseUrl,
  parseIni,
  readConfigText,
  toBoolean,
  toInteger,
  toList,
} from './config-ini.ts';
export {
  BOOLEAN,
  type ConfigOption,
  type ConfigSchema,
  choice,
  DATABASE_URL,
  type DeprecatedName,
  defaultTextOf,
  deprecatedNamesUsed,
  flagOf,
  integer,
  LIST,
  type OptionType,
  type OptionTypeLike,
  optionPlace,
  optionType,
  PATH,
  PORT,
  readConfigOptions,
  STRING,
} from './config-options.ts';
export {
  changedSettings,
  holdReloadSignals,
  onReloadSignal,
  settingsNeedingRestart,
} from './config-reload.ts';
export { renderConfigSample, type SampleHeading } from './config-sample.ts';
export {
  DATA_DIR_ENV,
  type DataDir,
  type DataDirSettings,
  type DataDirSource,
  defaultDataDir,
  resolveDataDir,
} from './data-dir.ts';
export {
  capsAsJson,
  capsSummary,
  checkDeployment,
  DeploymentTooOldError,
  type DeploymentView,
  readDeployment,
  tooOldMessage,
} from './deployment-caps.ts';
export {
  type DeploymentState,
  type OnlineMigrationState,
  type ReadStateOptions,
  readDeploymentState,
} from './deployment-state.ts';
export {
  type DowngradeRowsOutcome,
  downgradeRows,
  processesWritingAbove,
} from './downgrade-rows.ts';
export {
  DISABLED_BY_FILE_REASON,
  DRAINING_REASON,
  HEALTHY_REASON,
  type HealthAnswer,
  type HealthcheckConfig,
  HealthState,
  healthAnswer,
} from './healthcheck.ts';
export {
  capsLine,
  type DeploymentLog,
  followDeployment,
  type LiveDeployment,
  pinOf,
} from './live-deployment.ts';
// Logs and metrics: only the settings here. The logger, the metrics and the HTTP hooks load
// pino and prom-client (~0.1 s), so serving commands import them by path, when they serve:
// process-operations.ts, http/fastify-operations.ts (docs/operations.md).
export {
  DEFAULT_LOGGING,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  type LoggingConfig,
  type LogLevel,
  type LogSettings,
  LogSettingsError,
  logSettingsOf,
  parseLogFormat,
  parseLogLevel,
} from './logging/log-settings.ts';
export {
  checkOnlineMigrationGate,
  gateMessage,
  type OnlineMigrationGate,
  pendingUpgradeStep,
} from './online-migration-gate.ts';
export { DEFAULT_OPERATIONS, type OperationsConfig } from './operations-config.ts';
export { OPERATIONS_OPTIONS } from './operations-options.ts';
export {
  checkPeerVersions,
  type ProcessIdentity,
  type ProcessRegistration,
  type RegisterProcessOptions,
  registerProcess,
  ServiceTooOldError,
} from './process-registration.ts';
export {
  loggingPaths,
  type ReloadInput,
  type ReloadReport,
  type ReloadTarget,
  reloadProcess,
} from './process-reload.ts';
export {
  assertRowsReadable,
  downgradeRowsCommand,
  RowsUnreadableError,
  rowsUnreadableByLiveProcesses,
  type UnreadableByLive,
  unreadableByLiveMessage,
} from './readable-rows.ts';
export {
  compatibilityOf,
  defineService,
  NO_CONFIG,
  type OperatorDialect,
  type ServiceConfig,
  type ServiceDefinition,
  type ServiceDefinitionInput,
  serviceNamed,
  UnknownServiceError,
} from './service-definition.ts';
export { type ServicesTablePeersOptions, servicesTablePeers } from './services-table-peers.ts';
export {
  type BinaryState,
  DEFAULT_SERVICES_WATCH_SECONDS,
  type ServicesSnapshot,
  type ServicesWatch,
  type ServicesWatchOptions,
  watchServices,
} from './services-watch.ts';
export { STOP_SIGNALS, waitForStopSignal } from './stop-signal.ts';
export {
  type Build,
  describeTier,
  type NextStep,
  type PlannedProcess,
  type PlanStep,
  planFromState,
  planUpgrade,
  type UpgradePlan,
} from './upgrade-plan.ts';
export {
  isWorkerProcess,
  leaveCluster,
  superviseWorkers,
  type WorkersIo,
  workerNumber,
} from './workers.ts';
