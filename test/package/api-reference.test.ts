/**
 * The API reference: TypeDoc reads the package's nine entry points and finds every export
 * documented (`validation.notDocumented`), every type a public signature names either exported
 * or listed as intentionally internal, and every link resolving, with warnings as errors
 * (tools/api-reference/typedoc.json). Nothing is written: `npm run api-reference` writes the
 * HTML to docs/api/.
 *
 * TypeDoc needs TypeScript's JavaScript API, which the project's compiler (typescript 7, the
 * native one) does not have: it runs with TypeScript 6 from the tools/api-reference workspace.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './support/packed.ts';

const TOOL = join(ROOT, 'tools/api-reference');

describe('the API reference', () => {
  it('documents every export of the entry points (TypeDoc, warnings as errors)', () => {
    const config = JSON.parse(readFileSync(join(TOOL, 'typedoc.json'), 'utf8')) as {
      entryPoints: string[];
      treatWarningsAsErrors: boolean;
      validation: Record<string, boolean>;
    };
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    // The reference covers exactly the package's entry points.
    assert.deepEqual(
      config.entryPoints
        .map((entry) => entry.replace(/^\.\.\/\.\.\/src\/(\w+)\/index\.ts$/, './$1'))
        .sort(),
      Object.keys(pkg.exports)
        .filter((key) => key !== './package.json')
        .sort(),
    );
    assert.equal(config.treatWarningsAsErrors, true);
    assert.deepEqual(config.validation, {
      notExported: true,
      invalidLink: true,
      notDocumented: true,
    });

    const result = spawnSync(
      process.execPath,
      [
        join(TOOL, 'node_modules/typedoc/bin/typedoc'),
        '--options',
        join(TOOL, 'typedoc.json'),
        '--emit',
        'none',
        '--logLevel',
        'Warn',
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 180_000 },
    );
    const output = `${result.stdout}${result.stderr}`;
    assert.equal(result.status, 0, `TypeDoc failed:\n${output}`);
    assert.doesNotMatch(output, /warning|error/i, output);
  });
});
