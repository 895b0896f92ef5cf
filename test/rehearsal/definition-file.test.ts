/** `--definition FILE`: a service from a module of another project, with that project's repository. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  checkDefinition,
  DefinitionFileError,
  loadDefinitionFile,
} from '../../src/rehearsal/definition-file.ts';

const DEFINITION = `export default {
  name: 'notes',
  workerTier: 'worker',
  configText: () => '',
  launch: () => ({ args: [], ready: /ready/ }),
  databaseCommand: () => undefined,
  microversionHeader: 'X-Notes-API-Version',
  defaultMicroversion: '1.0',
  newReleaseMicroversion: '1.1',
  objectsShown: ['Note'],
  binaryPrefix: 'notes',
  createLoad: () => ({}),
  versionCounts: async () => ({}),
  checkData: async () => ({ summary: '', compared: {}, problems: [] }),
};
`;

describe('a service definition from a file', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-definition-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the default export, with the git repository holding the file as the project', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, 'rehearsal'), { recursive: true });
    execFileSync('git', ['init', '--quiet'], { cwd: project });
    writeFileSync(join(project, 'rehearsal/notes.mjs'), DEFINITION);
    const loaded = await loadDefinitionFile('project/rehearsal/notes.mjs', dir);
    assert.equal(loaded.service.name, 'notes');
    assert.equal(loaded.repoRoot, project);
  });

  it('refuses a missing file, and one outside a git repository', async () => {
    await assert.rejects(
      loadDefinitionFile('nowhere.mjs', dir),
      new DefinitionFileError(`--definition: no file ${join(dir, 'nowhere.mjs')}`),
    );
    const loose = join(dir, 'loose');
    mkdirSync(loose);
    writeFileSync(join(loose, 'notes.mjs'), DEFINITION);
    await assert.rejects(loadDefinitionFile('loose/notes.mjs', dir), /is not in a git repository/);
  });

  it('names the first field a default export lacks', () => {
    assert.throws(() => checkDefinition(undefined, 'x.mjs'), /x\.mjs has no default export/);
    assert.throws(
      () => checkDefinition({ name: 'notes' }, 'x.mjs'),
      new DefinitionFileError("--definition: x.mjs: 'workerTier' must be a non-empty string"),
    );
    const full = {
      name: 'n',
      workerTier: 'w',
      microversionHeader: 'h',
      defaultMicroversion: '1.0',
    };
    assert.throws(
      () =>
        checkDefinition(
          { ...full, newReleaseMicroversion: '1.1', binaryPrefix: 'n', configText: 'no' },
          'x.mjs',
        ),
      /'configText' must be a function/,
    );
  });
});
