/**
 * The modules a process loads at start: the files reached from an entry module through its
 * static imports, leaving out `import type` (erased) and `import()` (loaded when it runs).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const toPosix = (path: string) => path.split(sep).join('/');
const STATIC_IMPORT =
  /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*['"](\.[^'"]+)['"]|^import\s*['"](\.[^'"]+)['"]/gms;

/** The relative modules `text` loads when it is loaded. */
export function staticRelativeImports(text: string): string[] {
  return [...text.matchAll(STATIC_IMPORT)].map((m) => (m[1] ?? m[2]) as string);
}

/** Every file of the repository at `root` that loading `entry` (relative to it) loads. */
export function modulesLoadedFrom(root: string, entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const specifier of staticRelativeImports(text)) {
      visit(toPosix(relative(root, resolve(dirname(join(root, file)), specifier))));
    }
  };
  visit(entry);
  return seen;
}
