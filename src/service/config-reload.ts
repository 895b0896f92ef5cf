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
  return () => {
    process.off('SIGHUP', run);
  };
}
