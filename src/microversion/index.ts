export type {
  ClientRequest,
  MicroversionClientOptions,
  MicroversionResponse,
} from './client.ts';
export { MicroversionClient } from './client.ts';
export type {
  InvalidRequestReason,
  RangeSource,
  UnsupportedRequestState,
} from './client-errors.ts';
export {
  InvalidRequestedVersionError,
  MicroversionClientError,
  MicroversionsUnsupportedError,
  NoCommonVersionError,
  VersionRejectedError,
} from './client-errors.ts';
export type { FirstAttempt, Range, UserChoice } from './client-negotiation.ts';
export {
  firstAttempt,
  highestCommonVersion,
  parseUserChoice,
} from './client-negotiation.ts';
export type { MicroversionPluginOptions } from './fastify-plugin.ts';
export {
  appendVary,
  microversionPlugin,
  sendVersionError,
  UNVERSIONED_ROUTE,
} from './fastify-plugin.ts';
export { windowedHandler } from './fastify-windows.ts';
export type { FeatureWindow } from './feature-windows.ts';
export { FeatureWindows } from './feature-windows.ts';
export type { FeatureTable } from './features.ts';
export { defineFeatures, FeatureGate, FeatureTableError, ungatedVersions } from './features.ts';
export { GatedFields } from './gated-fields.ts';
export type { CompiledHeaderStyle, HeaderMode, HeaderStyle } from './header-style.ts';
export { compileHeaderStyle, HeaderStyleError, STANDARD_HEADER } from './header-style.ts';
export { VersionNegotiator } from './negotiator.ts';
export type {
  AtVersion,
  Gated,
  JsonSchemaObject,
  OpenApiOperation,
  OpenApiService,
  QueryParameter,
  ResponseSpec,
} from './openapi.ts';
export {
  existsAt,
  OpenApiDocuments,
  openApiDocument,
  openApiText,
  schemaRef,
  UnknownDocumentVersionError,
  valueAt,
} from './openapi.ts';
export type { HeaderBag, VersionHeaderValues } from './request-header.ts';
export {
  findRequestedVersion,
  findServiceEntry,
  lastListElement,
  versionHeaderValues,
} from './request-header.ts';
export type { ResponseHeader } from './resolved-version.ts';
export { ResolvedVersion } from './resolved-version.ts';
export type { HeaderReader, ServerVersions } from './response-versions.ts';
export { parseJsonBody, readRangeFromBody, readServerVersions } from './response-versions.ts';
export type { ErrorFormatter, ErrorReport, MicroversionServerConfig } from './server-config.ts';
export { ServerConfigError } from './server-config.ts';
export {
  MalformedVersionError,
  NoHandlerForVersionError,
  VersionNotAcceptableError,
  VersionServerError,
} from './server-errors.ts';
export type { Version } from './version.ts';
export {
  compareVersions,
  formatVersion,
  InvalidVersionError,
  isLatest,
  LATEST,
  makeVersion,
  maxVersion,
  minVersion,
  parseVersion,
  tryParseVersion,
  VERSION_FORMAT,
  versionInRange,
  versionsEqual,
} from './version.ts';
export type { KnownServerVersions } from './version-cache.ts';
export { defaultVersionCache, VersionCache } from './version-cache.ts';
export type { VersionRange } from './version-list.ts';
export { VersionListError, versionRange } from './version-list.ts';
export type { VersionWindow, WindowProblem, WindowSelector } from './version-windows.ts';
export { CompiledWindows, VersionWindowsError, validateWindows } from './version-windows.ts';
