/** `baton db services`: who runs which service version; `--remove-dead` forgets dead ones. */
import { DEFAULT_LIVE_WITHIN_SECONDS, listServices, removeDeadServices } from '../db/index.ts';
import { renderBoxTable } from '../db/upgrade-check/box-table.ts';
import { EXIT, usageError } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';

export interface ServicesOptions extends DatabaseOptions {
  readonly removeDead?: boolean;
  readonly deadAfter?: string;
}

export async function dbServices(
  options: ServicesOptions,
  out: (line: string) => void,
): Promise<number> {
  const deadAfter = options.deadAfter === undefined ? undefined : Number(options.deadAfter);
  if (deadAfter !== undefined && !(Number.isSafeInteger(deadAfter) && deadAfter > 0)) {
    throw usageError(
      `--dead-after must be a positive number of seconds, not '${options.deadAfter}'`,
    );
  }
  return withServiceDatabase(options, 'existing', async (_service, db) => {
    const liveness = deadAfter === undefined ? {} : { liveWithinSeconds: deadAfter };
    if (options.removeDead) {
      const removed = await removeDeadServices(db, {
        deadAfterSeconds: deadAfter ?? DEFAULT_LIVE_WITHIN_SECONDS,
      });
      for (const dead of removed)
        out(
          `removed ${dead.binary} on ${dead.host} (version ${dead.version}, last seen ${dead.lastSeen.toISOString()})`,
        );
      if (removed.length === 0) out('no dead services to remove');
    }
    const services = await listServices(db, liveness);
    if (services.length === 0) {
      out('no services registered');
      return EXIT.ok;
    }
    out(
      renderBoxTable(
        ['binary', 'host', 'version', 'started', 'last seen', 'state'],
        services.map((s) => [
          s.binary,
          s.host,
          String(s.version),
          s.startedAt.toISOString(),
          s.lastSeen.toISOString(),
          s.live ? 'live' : 'dead',
        ]),
      ),
    );
    return EXIT.ok;
  });
}
