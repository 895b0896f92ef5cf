/**
 * Can the code read the rows? A process of a release must not start over rows a newer release
 * wrote at object versions it does not know: it would fail on every one of them (answering
 * errors, leaving reservations, skipping them in its periodic work) while looking healthy.
 * So every process checks the object tables when it starts and refuses, saying what to do:
 * start the newer release, or go back properly (pin the newer release's processes to this
 * release, then have the newer release rewrite its rows down with `baton db downgrade-rows`).
 *
 * The same question, asked for each live process of the deployment, is the upgrade check's:
 * a live process that cannot read the rows fails it.
 */
import {
  countObjectVersions,
  type Database,
  describeUnreadableRows,
  type LivenessOptions,
  rowsNewerThan,
  type UnreadableRows,
} from '../db/index.ts';
import {
  codeServiceVersion,
  type LiveService,
  MASTER,
  releaseOfServiceVersion,
} from '../releases/index.ts';
import { readDeployment } from './deployment-caps.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** A process must not start: rows are at versions this code does not know. Exit 2. */
export class RowsUnreadableError extends Error {
  override name = 'RowsUnreadableError';
  readonly rows: readonly UnreadableRows[];
  constructor(message: string, rows: readonly UnreadableRows[]) {
    super(message);
    this.rows = rows;
  }
}

/** The command that rewrites a newer release's rows down to `release`'s object versions. */
export function downgradeRowsCommand(service: ServiceDefinition, release: string): string {
  return `baton db downgrade-rows --service ${service.name} --to ${release}`;
}

/** Throws RowsUnreadableError when some rows were written at versions this code does not know. */
export async function assertRowsReadable(
  db: Database,
  service: ServiceDefinition,
  liveness: LivenessOptions = {},
): Promise<void> {
  if (service.objectTables.length === 0) return;
  const counts = await countObjectVersions(db, service.objectTables);
  const rows = rowsNewerThan(counts, (type) => service.code.objects[type]);
  if (rows.length === 0) return;
  const code = codeServiceVersion(service.releases);
  const { live } = await readDeployment(db, service, undefined, liveness);
  const newer = live.filter((process) => process.version > code);
  const who =
    newer.length === 0
      ? 'No process of a newer release is live now.'
      : `Live processes of a newer release: ${newer.map((p) => `${p.binary} on ${p.host} (service version ${p.version})`).join(', ')}.`;
  throw new RowsUnreadableError(
    [
      `This release of ${service.name} (${service.release}) cannot read rows a newer release wrote: ${describeUnreadableRows(rows)}. ${who}`,
      `Start the newer release here instead. To go back to ${service.release}: pin every process of the newer release to it ([DEFAULT] pin_release_version = ${service.release}) and restart them, then run "${downgradeRowsCommand(service, service.release)}" with the newer release until it exits 0, then start this release (docs/rehearsal.md, "Going back").`,
    ].join('\n'),
    rows,
  );
}

/** A live process that cannot read some rows, and which. */
export interface UnreadableByLive {
  readonly process: LiveService;
  /** Its release, as its service version names it. */
  readonly release: string | undefined;
  readonly rows: readonly UnreadableRows[];
}

/** The live processes of the service that cannot read some of the rows, with those rows. */
export async function rowsUnreadableByLiveProcesses(
  db: Database,
  service: ServiceDefinition,
  liveness: LivenessOptions = {},
): Promise<UnreadableByLive[]> {
  if (service.objectTables.length === 0) return [];
  const { live } = await readDeployment(db, service, undefined, liveness);
  const code = codeServiceVersion(service.releases);
  const older = live.filter((process) => process.version < code);
  if (older.length === 0) return [];
  const counts = await countObjectVersions(db, service.objectTables);
  const found: UnreadableByLive[] = [];
  for (const process of older) {
    const release = releaseOfServiceVersion(service.releases, process.version);
    const objects = service.releases[release ?? MASTER]?.objects ?? {};
    const rows = rowsNewerThan(counts, (type) => objects[type]?.at(-1));
    if (rows.length > 0) found.push({ process, release, rows });
  }
  return found;
}

/** One line per live process that cannot read the rows. */
export function unreadableByLiveMessage(found: readonly UnreadableByLive[]): string {
  return found
    .map(
      ({ process, release, rows }) =>
        `${process.binary} on ${process.host} (${release ?? 'an unknown release'}, service version ${process.version}) cannot read ${describeUnreadableRows(rows)}`,
    )
    .join('; ');
}
