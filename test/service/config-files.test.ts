/**
 * Which config files a command reads without `--config-file`, held to the real oslo.config
 * (Debian's python3-oslo.config, the library the real ironic-dbsync reads its files with): the
 * same files in the same order, and the same value winning, as files appear one by one in the
 * places it searches (`~/.ironic/`, `~/`, `/etc/ironic/`, `/etc/`, each `ironic.conf` and
 * `ironic-dbsync.conf`, and the `.conf.d` directories). `/etc` is a temporary folder on both
 * sides: BATON_SYSCONFDIR for Baton, oslo.config's `_get_config_dirs` mapped for Python.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import {
  configSearchDirs,
  configSearchOf,
  findConfigFiles,
  SYSCONFDIR_ENV,
} from '../../src/service/config-files.ts';
import { ConfigFileError } from '../../src/service/index.ts';

const OSLO = `
import json, sys
from oslo_config import cfg
etc = sys.argv[1]
real_dirs = cfg._get_config_dirs
def moved(project=None):
    return [etc + d[len('/etc'):] if d == '/etc' or d.startswith('/etc/') else d for d in real_dirs(project)]
cfg._get_config_dirs = moved
files = cfg.find_config_files(project='ironic', prog='ironic-dbsync')
dirs = cfg.find_config_dirs(project='ironic', prog='ironic-dbsync')
conf = cfg.ConfigOpts()
conf.register_opt(cfg.StrOpt('connection'), group='database')
conf([], project='ironic', prog='ironic-dbsync', default_config_files=files, default_config_dirs=dirs)
sources = []
import glob, os
for d in dirs:
    sources += sorted(glob.glob(os.path.join(d, '*.conf')))
print(json.dumps({'files': files + sources, 'connection': conf.database.connection}))
`;

function osloMissing(): string | undefined {
  const run = spawnSync('/usr/bin/python3', ['-c', 'import oslo_config'], { stdio: 'ignore' });
  return run.status === 0 ? undefined : 'python3-oslo.config is not installed';
}

const missing = osloMissing();
if (missing !== undefined && process.env.CI === 'true') throw new Error(`${missing} (CI=true)`);

describe('config files without --config-file, as oslo.config finds them', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-config-search-'));
  const home = join(root, 'home');
  const etc = join(root, 'etc');
  mkdirSync(home);
  mkdirSync(etc);
  const env = { HOME: home, [SYSCONFDIR_ENV]: etc };
  const saved = { HOME: process.env.HOME, sysconfdir: process.env[SYSCONFDIR_ENV] };
  after(() => {
    rmSync(root, { recursive: true, force: true });
  });
  const write = (path: string, connection: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `[database]\nconnection = sqlite:///${connection}\n`);
  };

  /** What Baton finds and which connection wins, with HOME pointed at the temporary home. */
  async function baton() {
    process.env.HOME = home;
    try {
      const found = findConfigFiles(configSearchOf(BAREMETAL_SERVICE.configProject, 'db', {}), env);
      const config = await BAREMETAL_SERVICE.readConfigFiles(found.files);
      return { files: [...found.files], connection: config.databaseUrl ?? null };
    } finally {
      if (saved.HOME === undefined) delete process.env.HOME;
      else process.env.HOME = saved.HOME;
    }
  }

  function oslo() {
    const run = spawnSync('/usr/bin/python3', ['-c', OSLO, etc], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as { files: string[]; connection: string | null };
  }

  test('the places, in oslo.config order', () => {
    process.env.HOME = home;
    try {
      assert.deepEqual(configSearchDirs('ironic', env), [
        join(home, '.ironic'),
        home,
        join(etc, 'ironic'),
        etc,
      ]);
    } finally {
      if (saved.HOME === undefined) delete process.env.HOME;
      else process.env.HOME = saved.HOME;
    }
  });

  const steps: [string, () => void][] = [
    ['nothing anywhere', () => {}],
    ['/etc/ironic.conf', () => write(join(etc, 'ironic.conf'), 'etc-root')],
    ['/etc/ironic/ironic.conf above it', () => write(join(etc, 'ironic', 'ironic.conf'), 'etc')],
    ['~/ironic.conf above both', () => write(join(home, 'ironic.conf'), 'home')],
    [
      "the program's own ~/.ironic/ironic-dbsync.conf, read after the project's",
      () => write(join(home, '.ironic', 'ironic-dbsync.conf'), 'program'),
    ],
    [
      '/etc/ironic/ironic.conf.d/*.conf, sorted, read last',
      () => {
        write(join(etc, 'ironic', 'ironic.conf.d', '20-b.conf'), 'dir-b');
        write(join(etc, 'ironic', 'ironic.conf.d', '10-a.conf'), 'dir-a');
        writeFileSync(join(etc, 'ironic', 'ironic.conf.d', 'notes.txt'), '[database]\n');
      },
    ],
  ];
  for (const [what, change] of steps) {
    test(what, { skip: missing }, async () => {
      change();
      const real = oslo();
      const ours = await baton();
      assert.deepEqual(ours.files, real.files);
      // oslo.config keeps sqlite:/// as written; Baton's reader too.
      assert.equal(ours.connection, real.connection);
    });
  }

  test('--config-file and --config-dir replace the search; a missing one is an error naming it', () => {
    const given = join(root, 'given.conf');
    write(given, 'given');
    for (const name of ['20-b', '10-a'])
      write(join(etc, 'ironic', 'ironic.conf.d', `${name}.conf`), name);
    const found = findConfigFiles(
      configSearchOf(BAREMETAL_SERVICE.configProject, 'db', { configFile: [given] }),
      env,
    );
    // The default .conf.d directory still applies beside --config-file, as in oslo.config.
    assert.deepEqual(found.files, [
      given,
      join(etc, 'ironic', 'ironic.conf.d', '10-a.conf'),
      join(etc, 'ironic', 'ironic.conf.d', '20-b.conf'),
    ]);
    assert.equal(found.source, 'given');
    const onlyDir = findConfigFiles(
      configSearchOf(BAREMETAL_SERVICE.configProject, 'db', {
        configFile: [given],
        configDir: [join(etc, 'ironic', 'ironic.conf.d')],
      }),
      env,
    );
    assert.equal(onlyDir.files.length, 3);
    assert.throws(
      () =>
        findConfigFiles(
          configSearchOf(BAREMETAL_SERVICE.configProject, 'db', { configFile: ['/nope.conf'] }),
          env,
        ),
      (error) =>
        error instanceof ConfigFileError && /\/nope\.conf: no such file/.test(error.message),
    );
    assert.throws(
      () =>
        findConfigFiles(
          configSearchOf(BAREMETAL_SERVICE.configProject, 'db', { configDir: ['/nope.d'] }),
          env,
        ),
      /config directory \/nope\.d: no such directory/,
    );
  });
});
