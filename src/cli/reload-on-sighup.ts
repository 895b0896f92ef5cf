/**
 * SIGHUP for the serving commands (issue 15 §2): plan the process again from its config file
 * and flags and hand the plan to the running process (src/service/process-reload.ts), with
 * one line on stdout saying what changed. A config file that no longer reads leaves the
 * process as it was, with a warning.
 */
import { describeCapsSource } from '../releases/index.ts';
import { onReloadSignal, type ReloadReport } from '../service/index.ts';

export interface ReloadIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
}

/** Installs the SIGHUP handler; returns the function that removes it. */
export function reloadOnSighup(
  binary: string,
  io: ReloadIo,
  reload: () => Promise<ReloadReport | undefined>,
): () => void {
  return onReloadSignal(
    async () => {
      const report = await reload();
      if (report === undefined) return;
      const restart =
        report.needRestart.length === 0
          ? ''
          : `; needing a restart: ${report.needRestart.join(', ')}`;
      io.out(
        `${binary} reloaded (SIGHUP): log level ${report.level}; caps in force: ${describeCapsSource(report.caps)}` +
          `${report.capsChanged ? ' (changed)' : ''}${restart}`,
      );
    },
    (error) =>
      io.err(
        `baton: warning: ${binary}: SIGHUP: ${error instanceof Error ? error.message : String(error)}; keeping the running settings\n`,
      ),
  );
}
