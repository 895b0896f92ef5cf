/**
 * `baton rehearse`: a live rolling upgrade of a service (`--service`: bare metal by default;
 * `--definition`: one a file of another project defines, in that project's repository)
 * from a recorded release to the working tree, under load (src/rehearsal, docs/rehearsal.md). Prints what it does,
 * then the step table, the failures and the data check; exit 0 only with zero failed
 * requests and a clean data check, 1 otherwise, 64 for bad flags.
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseUrlError, parseDatabaseUrl } from '../db/index.ts';
import { BAREMETAL_REHEARSAL } from '../rehearsal/baremetal-rehearsal.ts';
import { readChartAssets } from '../rehearsal/chart-assets.ts';
import { DefinitionFileError, loadDefinitionFile } from '../rehearsal/definition-file.ts';
import { DatabaseNotEmptyError } from '../rehearsal/empty-database.ts';
import { renderHtmlReport } from '../rehearsal/html-report.ts';
import { LEASES_REHEARSAL } from '../rehearsal/leases-rehearsal.ts';
import { rehearse } from '../rehearsal/rehearsal.ts';
import type { RehearsedService } from '../rehearsal/rehearsed-service.ts';
import { ReleaseFileError } from '../rehearsal/release-files.ts';
import { renderReport } from '../rehearsal/report.ts';
import { backFromSteps } from '../rehearsal/step-plan.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';

export interface RehearseOptions {
  readonly service?: string;
  readonly definition?: string;
  readonly from?: string;
  readonly db?: string;
  readonly rpc?: string;
  readonly amqpUrl?: string;
  readonly stepSeconds?: string;
  readonly rate?: string;
  readonly workers?: string;
  readonly microversion?: string;
  readonly backFrom?: string;
  readonly json?: string;
  readonly html?: string;
  readonly profile?: string;
  readonly findCapacity?: boolean;
}

/** What an option left out means (its --help text says the same). */
export const REHEARSE_DEFAULTS = {
  rpc: 'http',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672/',
  stepSeconds: '10',
  rate: '60',
  workers: '16',
  service: 'baremetal',
} as const;

/** The services `--service` names, each with its definition. */
// biome-ignore lint/suspicious/noExplicitAny: each service's load has its own type
export const REHEARSED_SERVICES: Readonly<Record<string, RehearsedService<any>>> = {
  baremetal: BAREMETAL_REHEARSAL,
  leases: LEASES_REHEARSAL,
};

/** The working tree: two levels above this module, in src/cli or dist/cli alike. */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function positive(name: string, value: string, integer: boolean): number {
  const n = Number(value);
  if (!(Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n)))) {
    throw usageError(
      `--${name} must be a positive ${integer ? 'integer' : 'number'}, not '${value}'`,
    );
  }
  return n;
}

export async function rehearseCommand(
  given: RehearseOptions,
  out: (line: string) => void,
): Promise<number> {
  const options = { ...REHEARSE_DEFAULTS, ...definedOnly(given) };
  if (given.definition !== undefined && given.service !== undefined) {
    throw usageError('--service and --definition name the service twice: give one');
  }
  const { service, repoRoot } = await chooseService(given.definition, options.service);
  if (options.rpc !== 'http' && options.rpc !== 'amqp') {
    throw usageError(`--rpc must be http or amqp, not '${options.rpc}'`);
  }
  if (options.microversion !== undefined && !/^1\.\d+$/.test(options.microversion)) {
    throw usageError(`--microversion must be 1.N, not '${options.microversion}'`);
  }
  if (options.db !== undefined) {
    try {
      parseDatabaseUrl(options.db);
    } catch (error) {
      if (error instanceof DatabaseUrlError) throw usageError(error.message);
      throw error;
    }
  }
  if (given.backFrom !== undefined && service.databaseCommand('', 'plan', '', '') === undefined) {
    throw usageError(
      `--back-from: the ${service.name} service has no commands to go back with (downgrade-rows, plan)`,
    );
  }
  if (given.backFrom !== undefined && !backFromSteps().includes(given.backFrom)) {
    throw usageError(
      `--back-from must be a step of the table to go back from: one of ${backFromSteps().join(', ')}, not '${given.backFrom}'`,
    );
  }
  checkReportPath('json', options.json);
  checkReportPath('html', options.html);
  if (
    options.profile !== undefined &&
    !(existsSync(options.profile) && statSync(options.profile).isDirectory())
  ) {
    throw usageError(`--profile ${options.profile}: no such folder`);
  }
  const stepSeconds = positive('step-seconds', options.stepSeconds, false);
  const rate = positive('rate', options.rate, false);
  const workers = positive('workers', options.workers, true);
  let report: Awaited<ReturnType<typeof rehearse>>;
  try {
    report = await rehearse({
      service,
      repoRoot,
      ...(options.from === undefined ? {} : { from: options.from }),
      ...(options.db === undefined ? {} : { databaseUrl: options.db }),
      ...(given.backFrom === undefined ? {} : { backFrom: given.backFrom }),
      rpc: options.rpc,
      amqpUrl: options.amqpUrl,
      stepSeconds,
      rate,
      workers,
      ...(options.microversion === undefined ? {} : { microversion: options.microversion }),
      ...(options.profile === undefined ? {} : { profileDir: resolve(options.profile) }),
      ...(given.findCapacity === true ? { findCapacity: true } : {}),
      say: out,
    });
  } catch (error) {
    if (error instanceof ReleaseFileError || error instanceof DatabaseNotEmptyError)
      throw usageError(error.message);
    throw new CliExit(`rehearsal aborted: ${(error as Error).message}`, EXIT.failure);
  }
  out(renderReport(report));
  if (options.json !== undefined) {
    await writeReport(options.json, `${JSON.stringify(report, null, 2)}\n`, out);
  }
  if (options.html !== undefined) {
    await writeReport(options.html, renderHtmlReport(report, await readChartAssets()), out);
  }
  return report.ok ? EXIT.ok : EXIT.failure;
}

/** A service of this checkout by name, or one a file of the user's project defines. */
async function chooseService(
  definition: string | undefined,
  name: string,
  // biome-ignore lint/suspicious/noExplicitAny: each service's load has its own type
): Promise<{ service: RehearsedService<any>; repoRoot: string }> {
  if (definition !== undefined) {
    try {
      return await loadDefinitionFile(definition);
    } catch (error) {
      if (error instanceof DefinitionFileError) throw usageError(error.message);
      throw usageError(`--definition: ${definition} did not load: ${(error as Error).message}`);
    }
  }
  const service = REHEARSED_SERVICES[name];
  if (service === undefined || !Object.hasOwn(REHEARSED_SERVICES, name)) {
    throw usageError(
      `--service must be one of ${Object.keys(REHEARSED_SERVICES).join(', ')}, not '${name}'`,
    );
  }
  return { service, repoRoot: REPO_ROOT };
}

/**
 * A report file's folder must exist before the rehearsal starts: a typo found only after
 * minutes of rehearsing would lose the report.
 */
function checkReportPath(flag: string, path: string | undefined): void {
  if (path === undefined) return;
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw usageError(`--${flag} ${path}: the folder ${folder} does not exist`);
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw usageError(`--${flag} ${path} is a folder; give a file name`);
  }
}

async function writeReport(path: string, text: string, out: (line: string) => void) {
  try {
    await writeFile(path, text);
    out(`report written to ${path}`);
  } catch (error) {
    throw new CliExit(`cannot write ${path}: ${(error as Error).message}`, EXIT.failure);
  }
}

function definedOnly(options: RehearseOptions): Partial<RehearseOptions> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}
