/**
 * The committed vectors (test/fixtures/ovo/vectors.json) are what the installed library
 * answers today: the generator runs again under Debian's Python and compares its output
 * with the file. A library update that changes an answer fails here, not silently later.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ironicPythonMissing, SYSTEM_PYTHON } from '../baremetal/support/ironic-python.ts';

const GENERATOR = fileURLToPath(new URL('../fixtures/ovo/generate.py', import.meta.url));
const OSLO = '/usr/lib/python3/dist-packages/oslo_versionedobjects';

/** Why the generator cannot run here; under CI=true a missing package is an error instead. */
function missing(): string | undefined {
  const ironic = ironicPythonMissing();
  if (ironic !== undefined) return ironic;
  if (existsSync(OSLO)) return undefined;
  const reason = `${OSLO} is missing (install: apt-get install python3-oslo.versionedobjects)`;
  if (process.env.CI === 'true')
    throw new Error(`${reason} (CI=true: the vectors must be checked)`);
  return reason;
}

describe('the oslo.versionedobjects vectors', () => {
  it('are what the installed library answers (generate.py --check)', {
    skip: missing(),
  }, async () => {
    const { stdout } = await promisify(execFile)(SYSTEM_PYTHON, [GENERATOR, '--check'], {
      // No __pycache__ beside the fixtures.
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
      assert.fail(`generate.py --check exited ${error.code}: ${error.stdout}${error.stderr}`);
    });
    assert.equal(stdout.trim(), 'vectors.json up to date');
  });
});
