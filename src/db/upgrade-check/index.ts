/** Upgrade checks (`baton status upgrade check`, after oslo.upgradecheck). */
export { type BoxTableOptions, renderBoxTable } from './box-table.ts';
export {
  type MixedServiceVersionsCheckOptions,
  mixedServiceVersionsCheck,
} from './mixed-service-versions-check.ts';
export { type ObjectVersionsCheckOptions, objectVersionsCheck } from './object-versions-check.ts';
export {
  type PendingOnlineMigrationsCheckOptions,
  pendingOnlineMigrationsCheck,
} from './pending-online-migrations-check.ts';
export { type PinnedRelease, releasePinCheck } from './release-pin-check.ts';
export { renderUpgradeCheckTable, wrapText } from './result-table.ts';
export {
  CHECK_EXIT_STATUS,
  type CheckCode,
  type CheckResult,
  checkFailure,
  checkSuccess,
  checkWarning,
  runUpgradeChecks,
  type UpgradeCheck,
  type UpgradeCheckReport,
  type UpgradeCheckRow,
} from './upgrade-check.ts';
