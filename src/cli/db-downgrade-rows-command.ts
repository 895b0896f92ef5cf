/**
 * `baton db downgrade-rows --to RELEASE [--max-count N]`: rewrites the rows this release wrote
 * at object versions RELEASE does not know down to RELEASE's, so RELEASE's processes can start
 * again (going back after step 3.1 of a rolling upgrade; docs/rehearsal.md, "Going back").
 * Refuses (exit 2) while a live process of the service writes above RELEASE's versions:
 * every one must be pinned to RELEASE first. Exit 0 when no row is left above RELEASE, 1 when
 * `--max-count` stopped it with rows left, 64 for a release this code does not know.
 */
import { type Database, InvalidMaxCountError, parseMaxCount, renderBoxTable } from '../db/index.ts';
import { MASTER } from '../releases/index.ts';
import { downgradeRows, processesWritingAbove, type ServiceDefinition } from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';

export interface DowngradeRowsOptions extends DatabaseOptions {
  readonly to?: string;
  readonly maxCount?: string;
}

/** Rows per run when no --max-count is given: enough for any deployment, in one pass. */
const ALL = Number.MAX_SAFE_INTEGER;

function targetRelease(service: ServiceDefinition, to: string | undefined): string {
  const release = to?.trim() ?? '';
  const known = Object.keys(service.releases).filter((name) => name !== MASTER);
  if (release === '' || !known.includes(release)) {
    throw usageError(
      `--to must name a release of ${service.name} older than this one: one of ${known.join(', ')}${release === '' ? '' : `, not '${release}'`}`,
    );
  }
  return release;
}

async function gate(db: Database, service: ServiceDefinition, release: string): Promise<void> {
  const writing = await processesWritingAbove(db, service, release);
  if (writing.length === 0) return;
  const who = writing
    .map(
      (p) =>
        `${p.binary} on ${p.host} (${p.capsRelease === undefined ? `service version ${p.version}, unpinned` : `caps at ${p.capsRelease}`})`,
    )
    .join(', ');
  throw new CliExit(
    `refusing to rewrite rows down to ${release}: these live processes write newer versions and would write them again: ${who}. Pin each to ${release} ([DEFAULT] pin_release_version = ${release}) and restart it, then run this again.`,
    EXIT.incompatible,
  );
}

export async function dbDowngradeRows(
  options: DowngradeRowsOptions,
  out: (line: string) => void,
  definition?: ServiceDefinition,
): Promise<number> {
  let maxCount: number;
  try {
    maxCount = parseMaxCount(options.maxCount) ?? ALL;
  } catch (error) {
    if (error instanceof InvalidMaxCountError) throw usageError(error.message);
    throw error;
  }
  return withServiceDatabase(
    options,
    'existing',
    async (service, db) => {
      const release = targetRelease(service, options.to);
      await gate(db, service, release);
      const { result, unknownToRelease } = await downgradeRows(db, service, release, maxCount);
      out(
        renderBoxTable(
          ['table', `rows above ${release}`, 'rewritten'],
          result.tables.map((t) => [t.table, String(t.total), String(t.rewritten)]),
          { alignRight: [1, 2] },
        ),
      );
      for (const { type, table, count } of unknownToRelease) {
        out(
          `${table} holds ${count} ${type} row(s): ${release} does not know ${type} and never reads them; they stay (the service's docs say what that means for ${release}).`,
        );
      }
      if (result.remaining > 0) {
        out(`${result.remaining} row(s) still above ${release}: run the command again.`);
        return EXIT.failure;
      }
      out(
        `Every row is at ${release}'s object versions or older: ${release}'s processes can start.`,
      );
      return EXIT.ok;
    },
    definition,
  );
}
