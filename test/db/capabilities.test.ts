/**
 * Dialect differences go through `src/db/capabilities.ts` flags: outside `src/db`, no code
 * names a backend or compares against one. This reads every source file under `src/` (but
 * `src/db`) and fails on the line that does.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { capabilitiesOf } from '../../src/db/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

const BACKEND_NAME = '(?:sqlite|postgres|postgresql|mysql|mariadb)';
const FORBIDDEN: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  // 'mysql', "sqlite", `postgresql`: a string that is exactly a backend's name.
  {
    what: 'a backend name as a string',
    pattern: new RegExp(String.raw`(['"\`])${BACKEND_NAME}\1`, 'i'),
  },
  // backend === x, x !== backend, url.backend == x, switch (caps.backend)
  {
    what: 'a comparison with the backend',
    pattern: /\bbackend\s*[!=]==?|[!=]==?\s*[\w.]*\bbackend\b/,
  },
  { what: 'a switch on the backend', pattern: /\bswitch\s*\([^)]*\bbackend\b/ },
  // url.backend, caps.backend: read to be passed on and compared somewhere else.
  { what: 'reading the backend', pattern: /\.backend\b/ },
];

/** Comments may name backends (they explain why a flag exists); code may not. */
function codeOf(line: string): string {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  return line.replace(/\s\/\/.*$/, '');
}

/** `file:line: what: the line` for every forbidden line of `text`. */
function backendMentions(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = codeOf(line);
    for (const { what, pattern } of FORBIDDEN) {
      if (pattern.test(code)) found.push(`${file}:${index + 1}: ${what}: ${line.trim()}`);
    }
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(SRC, 'db') ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

test('no code outside src/db names a backend or compares against one', () => {
  const files = sourceFiles(SRC);
  assert.ok(files.length > 50, `read ${files.length} source files`);
  const mentions = files.flatMap((file) =>
    backendMentions(relative(ROOT, file), readFileSync(file, 'utf8')),
  );
  assert.deepEqual(mentions, [], 'ask a flag of src/db/capabilities.ts instead');
});

test('the check catches what it forbids, and lets comments and flags pass', () => {
  const bad = [
    "if (database.url.backend === 'mysql') {",
    '    backend === "sqlite"',
    "const locked = caps.backend !== 'postgresql' ? a : b;",
    'switch (url.backend) {',
    "type Backend = 'sqlite' | 'postgresql' | 'mysql';",
    "case 'mariadb':",
    'await loadFlatCandidates(db.kysely, db.url.backend, request);',
  ];
  for (const line of bad) assert.equal(backendMentions('x.ts', line).length > 0, true, line);
  const fine = [
    "if (caps.skipDuplicate === 'on-conflict') {",
    '// MySQL would otherwise treat an explicit 0 as "next id".',
    " * `backend === 'mysql'` is what this replaces",
    "const url = 'sqlite:data/baton.sqlite';",
    'if (database.caps.singleWriter) return;',
  ];
  for (const line of fine) assert.deepEqual(backendMentions('x.ts', line), [], line);
});

test('every backend has every flag', () => {
  const keys = (backend: Parameters<typeof capabilitiesOf>[0]) =>
    Object.keys(capabilitiesOf(backend)).sort();
  assert.deepEqual(keys('postgresql'), keys('sqlite'));
  assert.deepEqual(keys('mysql'), keys('sqlite'));
});
