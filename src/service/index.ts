/** What a service is to the toolkit, and how a process of it starts and stops. */
export { type PinSetting, pinReleaseVersion, resolveCapsInForce } from './caps-at-start.ts';
export {
  type CodeTables,
  type CodeVersions,
  codeVersionsOf,
  masterReleaseOf,
} from './code-versions.ts';
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
  defaultTextOf,
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
  checkPeerVersions,
  type ProcessIdentity,
  type ProcessRegistration,
  type RegisterProcessOptions,
  registerProcess,
  ServiceTooOldError,
} from './process-registration.ts';
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
export { STOP_SIGNALS, waitForStopSignal } from './stop-signal.ts';
export { isWorkerProcess, leaveCluster, superviseWorkers, type WorkersIo } from './workers.ts';
