/**
 * The rehearsal: a live rolling upgrade under load, from a recorded release to the working
 * tree, step by step as the rolling-upgrade doc orders them, ending with a check of the data
 * against what the load saw acknowledged (docs/rehearsal.md). `baton rehearse` is this module
 * with flags.
 *
 * It rehearses a service a {@link RehearsedService} defines (its processes, database
 * commands, load and data check) from a git repository: it builds the previous release from
 * a commit and reads `releases/`. The bare metal reference service is one such definition,
 * `baton rehearse --service NAME` picks one; `baton rehearse --definition FILE` takes one a
 * file of another project exports, with that project's repository. A load paces itself with
 * {@link Pacer} and sends its requests with {@link sendRecorded} (docs/tutorial.md).
 *
 * @module
 */
export type { CapacityMeasure, CapacityReport } from './capacity.ts';
export type { DataCheckResult } from './data-check.ts';
export type { VersionCounts } from './database-snapshot.ts';
export { assertEmptyDatabase, DatabaseNotEmptyError } from './empty-database.ts';
export type { ReportedCaps } from './metrics-caps.ts';
export { Pacer } from './pacer.ts';
export { type LoadAnswer, type LoadRequest, sendRecorded } from './recorded-request.ts';
export { DRAIN_WAIT_SECONDS, type RehearsalOptions, rehearse } from './rehearsal.ts';
export type {
  CommandLaunch,
  DatabaseCommand,
  LoadSettings,
  ProcessLaunch,
  ProcessSettings,
  RehearsedService,
  ServiceLoad,
} from './rehearsed-service.ts';
export { type ReleaseFile, ReleaseFileError } from './release-files.ts';
export {
  type CommandView,
  type ProcessView,
  type RehearsalReport,
  rehearsalPassed,
  renderReport,
  renderStepTable,
  type StepReport,
} from './report.ts';
export {
  type OutcomeFailure,
  type RequestKind,
  RequestLog,
  type RequestRecord,
  type WindowFigures,
} from './request-log.ts';
export type { SlowRequest } from './slow-requests.ts';
export {
  type Build,
  backFromSteps,
  PROCESSES_PER_TIER,
  rehearsalSteps,
  type Step,
  type StepAction,
  type Tier,
} from './step-plan.ts';
export type { TimelinePoint } from './timeline.ts';
