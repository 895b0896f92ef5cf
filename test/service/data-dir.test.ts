import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { defaultDataDir, resolveDataDir } from '../../src/service/data-dir.ts';

describe('the data directory', () => {
  test('the flag (or BATON_DATA_DIR, read as the flag) wins, then the config file', () => {
    const env = { XDG_DATA_HOME: '/xdg' };
    assert.deepEqual(resolveDataDir({ flag: '/srv/baton', file: '/var/lib/baton' }, env), {
      path: '/srv/baton',
      source: 'flag',
    });
    assert.deepEqual(resolveDataDir({ file: '/var/lib/baton' }, env), {
      path: '/var/lib/baton',
      source: 'config',
    });
    assert.deepEqual(resolveDataDir({ flag: '', file: '' }, env), {
      path: '/xdg/baton',
      source: 'xdg',
    });
  });

  test('the default is XDG_DATA_HOME/baton, else ~/.local/share/baton: never the current directory', () => {
    assert.deepEqual(defaultDataDir({ XDG_DATA_HOME: '/home/op/.data' }), {
      path: '/home/op/.data/baton',
      source: 'xdg',
    });
    const home = { path: join(homedir(), '.local', 'share', 'baton'), source: 'home' };
    assert.deepEqual(defaultDataDir({}), home);
    // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    assert.deepEqual(defaultDataDir({ XDG_DATA_HOME: 'relative/dir' }), home);
  });
});
