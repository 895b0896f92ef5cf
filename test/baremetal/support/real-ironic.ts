/**
 * Talks to the real Ironic objects (Debian python3-ironic, under /usr/bin/python3) through
 * ironic_objects.py. Without the package a suite is skipped with the reason, except under
 * CI=true, where that is a failure: CI never passes without the real peer.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const DEBIAN_PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./ironic_objects.py', import.meta.url));

function run(args: readonly string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(DEBIAN_PYTHON, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`${DEBIAN_PYTHON} exited ${code}: ${stderr.trim().split('\n').at(-1)}`));
    });
    child.stdin.end(input);
  });
}

/** Undefined when the real objects can be imported; else why not (an error under CI=true). */
export async function realIronicUnavailable(): Promise<string | undefined> {
  try {
    await run(['-c', 'import ironic.objects'], '');
    return undefined;
  } catch (error) {
    const reason = `python3-ironic unavailable (${(error as Error).message}); apt-get install python3-ironic`;
    if (process.env.CI === 'true')
      throw new Error(`${reason} (CI=true: the real peer must be tested)`);
    return reason;
  }
}

/** Sends one request to ironic_objects.py and returns its parsed answer. */
export async function askRealIronic<T>(request: unknown): Promise<T> {
  return JSON.parse(await run([SCRIPT], JSON.stringify(request))) as T;
}
