/**
 * What SIGHUP may change in a running process (issue 15 §2): the config file is read again
 * and planned as at start; the options that can change live (the log level: `[DEFAULT]
 * debug`, `--log-level`) are applied, every other option that changed is reported as
 * needing a restart, and the deployment is read again from the services table. Pure but for
 * the handler registration at the end.
 */
import { isDeepStrictEqual } from 'node:util';

/**
 * The dotted paths of the settings that differ between two plans (`api.port`,
 * `operations.debug`), leaves only; arrays compare whole.
 */
export function changedSettings(before: unknown, after: unknown, prefix = ''): string[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isRecord(before) || !isRecord(after)) {
    return isDeepStrictEqual(before, after) ? [] : [prefix || '(all)'];
  }
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed: string[] = [];
  for (const key of [...keys].sort()) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    changed.push(...changedSettings(before[key], after[key], path));
  }
  return changed;
}

/** The changed settings that need a restart: all but the ones `mutable` lists. */
export function settingsNeedingRestart(
  changed: readonly string[],
  mutable: readonly string[],
): string[] {
  return changed.filter((path) => !mutable.includes(path));
}

/**
 * Runs `reload` on each SIGHUP, one at a time (a SIGHUP during a reload runs one more after
 * it); returns the function that removes the handler. A failed reload is `onError`'s: the
 * process keeps running with what it had.
 */
/** A SIGHUP received before the process serves, waiting for onReloadSignal's reload. */
let heldSignal: { listener: () => void; pending: boolean } | undefined;

/**
 * Called first thing by a serving command: from now on a SIGHUP does not end the process
 * (Node's default) but waits for the reload onReloadSignal installs once the process serves,
 * which then runs once (the settings read during the start may predate the signal).
 */
export function holdReloadSignals(): void {
  if (heldSignal !== undefined) return;
  const held = {
    pending: false,
    listener: () => {
      held.pending = true;
    },
  };
  heldSignal = held;
  process.on('SIGHUP', held.listener);
}

/** Runs `reload` on each SIGHUP, one at a time; returns what stops listening. */
export function onReloadSignal(
  reload: () => Promise<void>,
  onError: (error: unknown) => void,
): () => void {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = reload()
      .catch(onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  process.on('SIGHUP', run);
  if (heldSignal !== undefined) {
    const { listener, pending } = heldSignal;
    heldSignal = undefined;
    process.off('SIGHUP', listener);
    if (pending) run();
  }
  return () => {
    process.off('SIGHUP', run);
  };
}
