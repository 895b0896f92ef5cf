/**
 * The import graph of `src/`, read from the source text: every `import … from`, side-effect
 * `import '…'`, `export … from` and `import('…')` of every .ts file. Biome formats top-level
 * statements from the first column and ends them with `;`, which is what the reader relies
 * on; a statement it could not read would show as a relative import naming no file, which
 * the test rejects.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface ImportArrow {
  /** The importing file, relative to the repository (`src/rpc/config.ts`). */
  readonly from: string;
  /** What the statement names, as written (`../db/connect.ts`, `node:fs`, `kysely`). */
  readonly specifier: string;
  /** For a relative specifier: the file it names, relative to the repository. */
  readonly target?: string;
  /** 1-based line of the statement. */
  readonly line: number;
}

const STATEMENT_START = /^(?:import|export)\b/;
const FROM = /\bfrom\s*['"]([^'"]+)['"]/;
const BARE_IMPORT = /^import\s*['"]([^'"]+)['"]/;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source text imports or re-exports, with their lines. */
export function readImports(text: string): { specifier: string; line: number }[] {
  const found: { specifier: string; line: number }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i] as string;
    if (STATEMENT_START.test(first)) {
      let statement = first;
      let end = i;
      // A statement runs to the line that ends it (Biome always writes the semicolon).
      while (!/;\s*(?:\/\/.*)?$/.test(lines[end] as string) && end + 1 < lines.length) {
        end++;
        statement += `\n${lines[end]}`;
        if (STATEMENT_START.test(lines[end] as string)) break;
      }
      const specifier = FROM.exec(statement)?.[1] ?? BARE_IMPORT.exec(statement)?.[1];
      if (specifier !== undefined && !/^export\s+(?:const|let|function|class)\b/.test(first)) {
        found.push({ specifier, line: i + 1 });
      }
    }
    for (const match of (lines[i] as string).matchAll(DYNAMIC_IMPORT)) {
      found.push({ specifier: match[1] as string, line: i + 1 });
    }
  }
  return found;
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const toPosix = (path: string) => path.split(sep).join('/');

/** Every import arrow of every .ts file under `root/src`. */
export function readImportGraph(root: string): ImportArrow[] {
  return typescriptFiles(join(root, 'src')).flatMap((file) => {
    const from = toPosix(relative(root, file));
    return readImports(readFileSync(file, 'utf8')).map(({ specifier, line }) =>
      specifier.startsWith('.')
        ? {
            from,
            specifier,
            line,
            target: toPosix(relative(root, resolve(dirname(file), specifier))),
          }
        : { from, specifier, line },
    );
  });
}
