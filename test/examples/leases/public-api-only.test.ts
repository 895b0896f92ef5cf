/**
 * The leases example is written as another team would write it: against the package's entry
 * points (`baton/<module>`) only. Every import of its files is a Node.js built-in, a toolkit
 * entry point, a library the package itself depends on, or a file of the example; never a
 * path into the toolkit's sources.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const EXAMPLE = join(import.meta.dirname, '../../../examples/leases');
const ENTRY_POINTS = Object.keys(
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')).exports,
).map((key) => `baton${key.slice(1)}`);
const LIBRARIES = ['fastify', 'kysely'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The module specifiers of a file's static and dynamic imports and re-exports. */
function importsOf(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g);
  return [...found].map((match) => match[1] as string);
}

describe('the leases example', () => {
  const files = sourceFiles(EXAMPLE);

  it('has sources to check', () => {
    assert.ok(files.length >= 5, files.join(', '));
  });

  it('imports only Node.js, the toolkit entry points, its libraries and its own files', () => {
    const refused: string[] = [];
    for (const file of files) {
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        const ok = specifier.startsWith('.')
          ? !relative(EXAMPLE, resolve(dirname(file), specifier)).startsWith('..')
          : specifier.startsWith('node:') ||
            ENTRY_POINTS.includes(specifier) ||
            LIBRARIES.includes(specifier);
        if (!ok) refused.push(`${relative(EXAMPLE, file)}: ${specifier}`);
      }
    }
    assert.deepEqual(refused, []);
  });

  it('would refuse a path into the sources', () => {
    assert.deepEqual(importsOf("import { f } from '../../../src/objects/index.ts';"), [
      '../../../src/objects/index.ts',
    ]);
    assert.ok(!ENTRY_POINTS.includes('baton/dist/db/connect.js'));
  });
});
