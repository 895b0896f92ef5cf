// Whether dist/ holds a build of the current sources. The build records the state of the
// inputs (src/ and the files that steer the compiler) when it starts; a later edit, a new or a
// removed file moves the newest modification time or the count, and the build is stale. About
// 5 ms for the ~270 entries of src/: cheap enough to check on every `baton` start.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The build's inputs besides src/ (a new compiler option changes the output too). */
const INPUT_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** What the build's inputs look like now: newest modification time (ms) and entry count. */
export function sourceState(root) {
  let newest = 0;
  let entries = 0;
  const see = (path) => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    entries++;
    // Directories count too: removing or adding a file changes its directory's time.
    if (stats.mtimeMs > newest) newest = stats.mtimeMs;
    return stats;
  };
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      see(path);
      if (entry.isDirectory()) walk(path);
    }
  };
  for (const file of INPUT_FILES) see(join(root, file));
  const src = join(root, 'src');
  if (see(src)?.isDirectory()) walk(src);
  return { newest, entries };
}

/** The build's record (dist/build-info.json), or undefined when there is no complete build. */
export function readBuildRecord(root) {
  try {
    return JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * 'current', 'missing' (no complete build) or 'stale' (the sources changed since). A copy
 * without src/ (only the build was shipped) is current.
 */
export function buildStatus(root) {
  const record = readBuildRecord(root);
  if (record?.sources === undefined) return 'missing';
  if (statSync(join(root, 'src'), { throwIfNoEntry: false }) === undefined) return 'current';
  const now = sourceState(root);
  const built = record.sources;
  return now.newest === built.newest && now.entries === built.entries ? 'current' : 'stale';
}
