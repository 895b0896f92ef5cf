/** Object-version compatibility of the rows in the database with a release (the rolling-upgrade doc). */
export {
  type FindIncompatibleOptions,
  findIncompatibleObjectVersions,
  type IncompatibleObjectVersion,
  type ObjectTable,
} from './find-incompatible.ts';
export {
  incompatibleObjectVersionsMessage,
  incompatibleObjectVersionsTable,
  type ReleaseNaming,
} from './incompatible-message.ts';
export { type RewriteDownResult, rewriteRowsDown } from './rewrite-down.ts';
export {
  describeUnreadableRows,
  rowsNewerThan,
  type UnreadableRows,
} from './rows-newer-than.ts';
export { countObjectVersions, type ObjectVersionCounts } from './version-counts.ts';
