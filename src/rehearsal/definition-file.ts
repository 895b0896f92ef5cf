/**
 * A service definition from a file of the user's own project (`baton rehearse --definition
 * FILE`): the module's default export is a {@link RehearsedService}, and the project it
 * rehearses is the git repository that holds the file (its `releases/` and its commits).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RehearsedService } from './rehearsed-service.ts';

/** A definition file that cannot be used: missing, not in a git repository, or not a service. */
export class DefinitionFileError extends Error {}

/** What a definition must have for the rehearsal to start; the rest is up to its type. */
const REQUIRED_FUNCTIONS = [
  'configText',
  'launch',
  'databaseCommand',
  'createLoad',
  'versionCounts',
  'checkData',
] as const;
const REQUIRED_STRINGS = [
  'name',
  'workerTier',
  'microversionHeader',
  'defaultMicroversion',
  'newReleaseMicroversion',
  'binaryPrefix',
] as const;

/** The service a definition file exports, and the repository it belongs to. */
export async function loadDefinitionFile(
  file: string,
  cwd: string = process.cwd(),
): Promise<{ service: RehearsedService; repoRoot: string }> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new DefinitionFileError(`--definition: no file ${path}`);
  let repoRoot: string;
  try {
    repoRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd: dirname(path),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new DefinitionFileError(
      `--definition: ${path} is not in a git repository (the previous release is built from a commit of it)`,
    );
  }
  const loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  return { service: checkDefinition(loaded.default, path), repoRoot };
}

/** The module's default export, if it has what a definition needs; else the first gap. */
export function checkDefinition(value: unknown, path: string): RehearsedService {
  if (typeof value !== 'object' || value === null) {
    throw new DefinitionFileError(`--definition: ${path} has no default export of a service`);
  }
  const record = value as Record<string, unknown>;
  for (const key of REQUIRED_STRINGS) {
    if (typeof record[key] !== 'string' || record[key] === '') {
      throw new DefinitionFileError(`--definition: ${path}: '${key}' must be a non-empty string`);
    }
  }
  for (const key of REQUIRED_FUNCTIONS) {
    if (typeof record[key] !== 'function') {
      throw new DefinitionFileError(`--definition: ${path}: '${key}' must be a function`);
    }
  }
  if (!Array.isArray(record.objectsShown)) {
    throw new DefinitionFileError(`--definition: ${path}: 'objectsShown' must be an array`);
  }
  return value as RehearsedService;
}
