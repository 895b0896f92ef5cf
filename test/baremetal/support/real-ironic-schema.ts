/**
 * The real Ironic schema on SQLite, made by Debian's `ironic-dbsync create_schema` (package
 * ironic-common) from Ironic's models. Unavailable: skipped with the reason, or a failure
 * under CI=true.
 */
import { execFile } from 'node:child_process';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const DBSYNC = '/usr/bin/ironic-dbsync';
const run = promisify(execFile);

export async function ironicDbsyncUnavailable(): Promise<string | undefined> {
  try {
    await access(DBSYNC);
    return undefined;
  } catch {
    const reason = `${DBSYNC} not found; apt-get install ironic-common`;
    if (process.env.CI === 'true')
      throw new Error(`${reason} (CI=true: the real peer must be tested)`);
    return reason;
  }
}

/** Creates the real schema in a fresh SQLite file; `drop` removes it. */
export async function createRealIronicSchema(): Promise<{
  path: string;
  drop: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-ironic-schema-'));
  const path = join(dir, 'ironic.sqlite');
  const config = join(dir, 'ironic.conf');
  await writeFile(config, `[DEFAULT]\n[database]\nconnection = sqlite:///${path}\n`);
  await run(DBSYNC, ['--config-file', config, 'create_schema'], { cwd: dir });
  return { path, drop: () => rm(dir, { recursive: true, force: true }) };
}
