/**
 * The repository stands alone: no tracked file (code, test, benchmark, script, document) reads
 * or links a folder beside the checkout, and the README's links stay inside the repository.
 * CI runs in a clone with nothing beside it; this makes a reference that would only work on a
 * developer's machine fail before it gets there.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Tracked files, as git lists them (the working tree's versions are read). */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(root, file)));
}

// Built from pieces so that this file does not match itself.
const UP = '\\.\\.';
const SHARED = 'shared';
const OUTSIDE = new RegExp(
  [
    `${UP}/(${UP}/)*${SHARED}\\b`, // a sibling folder named shared, however deep the climb
    `/work/${SHARED}\\b`, // the folder laid beside checkouts on this project's machines
    `\\b${SHARED}/(reference|seeds|hooks)\\b`, // its sub-folders, whatever the path before them
    `\\b${SHARED}/(DESIGN|STYLE)\\.md\\b`,
  ].join('|'),
);

/** Each line of `text` that refers outside the repository, as `file:line: text`. */
export function outsideReferences(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      OUTSIDE.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 160)}`] : [],
    );
}

describe('the repository stands alone', () => {
  it('recognises a reference outside the repository, in the forms it has taken', () => {
    const sibling = ['..', SHARED, 'reference', 'ovo', 'vectors.json'].join('/');
    assert.equal(outsideReferences('a.ts', `const p = '${sibling}';`).length, 1);
    assert.equal(outsideReferences('b.md', `see \`${['..', '..', SHARED].join('/')}\``).length, 1);
    assert.equal(outsideReferences('c.sh', `cat /work/${SHARED}/DESIGN.md`).length, 1);
    assert.equal(outsideReferences('d.md', `in ${SHARED}/seeds/`).length, 1);
    assert.deepEqual(
      outsideReferences('e.md', 'a shared machine, the shared-load cache, rpc_shared_secret'),
      [],
    );
  });

  it('has no tracked file that reads or links the folder beside the checkout', () => {
    const found = trackedFiles().flatMap((file) => {
      const bytes = readFileSync(join(root, file));
      if (bytes.includes(0)) return []; // binary (images)
      return outsideReferences(file, bytes.toString('utf8'));
    });
    assert.deepEqual(found, [], `references outside the repository:\n${found.join('\n')}`);
  });

  it('links, in the README and docs/, only to files of the repository that exist', () => {
    const documents = trackedFiles().filter(
      (file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')),
    );
    assert.ok(documents.includes('README.md') && documents.includes('docs/design.md'));
    const broken: string[] = [];
    for (const file of documents) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const path = (target as string).replace(/#.*$/, '');
        if (file === 'README.md' && /^[a-z]+:/i.test(path)) {
          broken.push(`${file}: ${target} (the README links only inside the repository)`);
        } else if (path !== '' && !/^[a-z]+:/i.test(path)) {
          if (!existsSync(join(root, dirname(file), path))) broken.push(`${file}: ${target}`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
