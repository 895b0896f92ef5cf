/**
 * `baton db services`: the processes of the service (every service's with `--all`): which
 * service version each runs, its pid, state, config files and health as its services row
 * records them, and the caps in force they call for (the pin, else the oldest live process's
 * release: the service-version spec); `--remove-dead` forgets dead ones; `--json` prints the
 * same as one JSON document.
 */
import {
  type Database,
  DEFAULT_LIVE_WITHIN_SECONDS,
  listServices,
  removeDeadServices,
  type ServiceRecord,
} from '../db/index.ts';
import { renderBoxTable } from '../db/upgrade-check/box-table.ts';
import { UnknownReleaseError } from '../releases/index.ts';
import {
  capsAsJson,
  capsSummary,
  readDeployment,
  type ServiceDefinition,
  tooOldMessage,
} from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';

export interface ServicesOptions extends DatabaseOptions {
  readonly removeDead?: boolean;
  readonly deadAfter?: string;
  /** The pin the caps are shown for (default: the config file's). */
  readonly pinReleaseVersion?: string;
  readonly json?: boolean;
  /** Every service's processes, not only the one `--service` names. */
  readonly all?: boolean;
  /** `BINARY@HOST`: list once that process serves (a start in a script waits for it). */
  readonly waitFor?: string;
  /** Seconds `--wait-for` waits before it gives up (exit 1). */
  readonly waitTimeout?: string;
}

/** The identity `--wait-for` names, checked before anything is opened. */
function waitTarget(text: string | undefined): { binary: string; host: string } | undefined {
  if (text === undefined) return undefined;
  const at = text.indexOf('@');
  if (at <= 0 || at === text.length - 1) {
    throw usageError(`--wait-for takes BINARY@HOST (baremetal-conductor@c1), not '${text}'`);
  }
  return { binary: text.slice(0, at), host: text.slice(at + 1) };
}

/**
 * Until a live row of that identity says it serves (its claim done, its start finished), or
 * the timeout. A row of older code, which records no state, serves once it is live.
 */
async function waitUntilServing(
  db: Database,
  target: { binary: string; host: string },
  timeoutSeconds: number,
  liveness: { liveWithinSeconds?: number },
): Promise<void> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const rows = await listServices(db, liveness);
    const row = rows.find((r) => r.binary === target.binary && r.host === target.host);
    if (row?.live && (row.state === undefined || row.state === 'serving')) return;
    if (Date.now() >= deadline) {
      throw new CliExit(
        `${target.binary}@${target.host} does not serve after ${timeoutSeconds} s (${row === undefined ? 'no row' : row.live ? `its row says ${row.state}` : 'its row is dead'})`,
        EXIT.failure,
      );
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 500));
  }
}

/** `live`, `dead`, or `live (stopping)` while the process says it starts or stops. */
function stateOf(row: ServiceRecord): string {
  if (!row.live) return 'dead';
  return row.state === undefined || row.state === 'serving' ? 'live' : `live (${row.state})`;
}

/** `1234`, or `1234 on m2` when the row names a machine other than its host's. */
function pidOf(row: ServiceRecord): string {
  if (row.pid === undefined) return '?';
  const host = row.host.split(':')[0];
  return row.machine === undefined || row.machine === host
    ? String(row.pid)
    : `${row.pid} on ${row.machine}`;
}

export async function dbServices(
  options: ServicesOptions,
  out: (line: string) => void,
  /** The service, when a test brings its own definition; else the one `options.service` names. */
  definition?: ServiceDefinition,
): Promise<number> {
  const target = waitTarget(options.waitFor);
  const waitTimeout = options.waitTimeout === undefined ? 120 : Number(options.waitTimeout);
  if (!(Number.isFinite(waitTimeout) && waitTimeout > 0)) {
    throw usageError(
      `--wait-timeout must be a positive number of seconds, not '${options.waitTimeout}'`,
    );
  }
  const deadAfter = options.deadAfter === undefined ? undefined : Number(options.deadAfter);
  if (deadAfter !== undefined && !(Number.isSafeInteger(deadAfter) && deadAfter > 0)) {
    throw usageError(
      `--dead-after must be a positive number of seconds, not '${options.deadAfter}'`,
    );
  }
  return withServiceDatabase(
    options,
    'existing',
    async (service, db, config) => {
      const liveness = deadAfter === undefined ? {} : { liveWithinSeconds: deadAfter };
      if (target !== undefined) await waitUntilServing(db, target, waitTimeout, liveness);
      const removedLines: string[] = [];
      if (options.removeDead) {
        const removed = await removeDeadServices(db, {
          deadAfterSeconds: deadAfter ?? DEFAULT_LIVE_WITHIN_SECONDS,
        });
        for (const dead of removed)
          removedLines.push(
            `removed ${dead.binary} on ${dead.host} (version ${dead.version}, last seen ${dead.lastSeen.toISOString()})`,
          );
        if (removed.length === 0) removedLines.push('no dead services to remove');
      }
      const services = (await listServices(db, liveness)).filter(
        (row) => options.all === true || service.binaries.includes(row.binary),
      );
      let deployment: Awaited<ReturnType<typeof readDeployment>>;
      try {
        deployment = await readDeployment(
          db,
          service,
          options.pinReleaseVersion ?? config.pinReleaseVersion,
          liveness,
        );
      } catch (error) {
        if (error instanceof UnknownReleaseError) throw usageError(error.message);
        throw error;
      }
      if (options.json) {
        out(
          JSON.stringify(
            {
              service: service.name,
              removed: removedLines,
              services: services.map((s) => ({
                binary: s.binary,
                host: s.host,
                version: s.version,
                startedAt: s.startedAt.toISOString(),
                lastSeen: s.lastSeen.toISOString(),
                state: s.live ? 'live' : 'dead',
                pid: s.pid ?? null,
                machine: s.machine ?? null,
                processState: s.state ?? null,
                address: s.address ?? null,
                configFiles: s.configFiles ?? [],
                health: s.health ?? null,
              })),
              capsInForce: capsAsJson(deployment.caps, service),
              tooOld: deployment.tooOld,
            },
            null,
            2,
          ),
        );
        return EXIT.ok;
      }
      for (const line of removedLines) out(line);
      if (services.length === 0)
        out(
          options.all === true
            ? 'no services registered'
            : `no ${service.name} processes registered (${service.binaries.join(', ')}; --all lists every service's)`,
        );
      else
        out(
          renderBoxTable(
            ['binary', 'host', 'version', 'pid', 'state', 'last seen', 'config files', 'health'],
            services.map((s) => [
              s.binary,
              s.host,
              String(s.version),
              pidOf(s),
              stateOf(s),
              s.lastSeen.toISOString(),
              (s.configFiles ?? []).join(', ') || 'none',
              s.health ?? (s.live ? 'ok' : ''),
            ]),
          ),
        );
      out(capsSummary(deployment.caps, service));
      if (deployment.tooOld.length > 0)
        out(`warning: ${tooOldMessage(service, deployment.tooOld)}`);
      return EXIT.ok;
    },
    definition,
  );
}
