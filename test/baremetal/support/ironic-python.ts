/**
 * Runs a Python snippet against the real Ironic 21.4.4 library installed on the machine
 * (Debian's python3-ironic, under /usr/lib/python3/dist-packages) and returns what it prints
 * as JSON. The tests use it to hold Baton's tables to the real ones. When the library is
 * missing the caller gets the reason to skip with; under CI=true a missing library is a
 * failure, never a skip (.ci/debian-packages lists python3-ironic).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SYSTEM_PYTHON = '/usr/bin/python3';
const IRONIC_PACKAGE = '/usr/lib/python3/dist-packages/ironic';
const inCi = process.env.CI === 'true';

/** Why the real Ironic library cannot be used here, or undefined when it can. */
export function ironicPythonMissing(): string | undefined {
  for (const path of [SYSTEM_PYTHON, IRONIC_PACKAGE]) {
    if (!existsSync(path)) {
      const reason = `${path} is missing (install: apt-get install python3-ironic)`;
      if (inCi)
        throw new Error(`${reason} (CI=true: the comparison with the real Ironic must run)`);
      return reason;
    }
  }
  return undefined;
}

/** Runs `script` with the system Python; it must print one JSON document. */
export async function runIronicPython<T>(script: string): Promise<T> {
  const { stdout } = await run(SYSTEM_PYTHON, ['-c', script], {
    maxBuffer: 16 * 1024 * 1024,
    // Python's set and dict orders of strings vary with the hash seed; fix it so a failure
    // message reads the same on every run.
    env: { ...process.env, PYTHONHASHSEED: '0' },
  });
  return JSON.parse(stdout) as T;
}
