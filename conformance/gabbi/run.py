"""Runs the real Placement's own functional tests (its gabbi files) over HTTP against Baton.

Each gabbi file names a fixture of placement/tests/functional/fixtures/gabbits.py (Debian's
python3-placement ships the fixtures, not the gabbi files). The real fixtures build their
data with the real service's objects, in process; here they write into a scratch database
that `baton db upgrade` created (Baton's tables are the real ones), and Baton's server is
then started on it with the settings the fixture gave the in-process service (CORS, policy
scope and defaults, rules overridden by a policy file). The tests talk HTTP to Baton; their
$ENVIRON values are the ones the fixtures set, as in the upstream run.

  git clone --depth 1 --branch 8.0.0 https://opendev.org/openstack/placement /tmp/placement
  /usr/bin/python3 conformance/gabbi/run.py /tmp/placement/placement/tests/functional/gabbits \
      [sqlite|postgresql|mysql] [file-name-word...]

Needs python3-placement and python3-gabbi (Debian). BATON_DIR is the Baton checkout (default:
the one holding this file); VERBOSE=2 names every test.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import types
import unittest
import uuid

import fixtures as fx

# Debian does not package oslotest; the fixtures only use it to capture output.
oslotest = types.ModuleType('oslotest')
oslotest.output = types.ModuleType('oslotest.output')
oslotest.log = types.ModuleType('oslotest.log')


class _Quiet(fx.Fixture):
    level = None
    capture_logs = False


oslotest.output.CaptureOutput = _Quiet
oslotest.log.ConfigureLogging = _Quiet
sys.modules.update({'oslotest': oslotest, 'oslotest.output': oslotest.output,
                    'oslotest.log': oslotest.log})

import sqlalchemy  # noqa: E402
from gabbi import driver  # noqa: E402
from oslo_config import cfg  # noqa: E402
from oslo_config import fixture as config_fixture  # noqa: E402
from oslo_policy import opts as policy_opts  # noqa: E402
from oslo_utils import uuidutils  # noqa: E402

from placement import conf as placement_conf  # noqa: E402
from placement import context  # noqa: E402
from placement import db_api as placement_db  # noqa: E402
from placement import deploy  # noqa: E402
from placement.objects import resource_class  # noqa: E402
from placement.objects import trait  # noqa: E402
from placement.tests.functional.fixtures import gabbits as real  # noqa: E402
from placement.tests.unit import policy_fixture  # noqa: E402

BATON_DIR = os.environ.get(
    'BATON_DIR', os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BACKEND = 'sqlite'
SERVERS = {
    'postgresql': ('postgresql://postgres@127.0.0.1:5432', 'postgresql+psycopg2://postgres@127.0.0.1:5432'),
    'mysql': ('mysql://root@127.0.0.1:3306', 'mysql+pymysql://root@127.0.0.1:3306'),
}
RULES = {}


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


PORT = free_port()


def baton(*args, **kwargs):
    return subprocess.Popen(
        ['node', '--import', 'tsx', 'src/cli/main.ts', *args], cwd=BATON_DIR, **kwargs)


class ScratchDatabase:
    """An empty database migrated by Baton; `.baton` and `.sqlalchemy` are its two URLs."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix='baton-gabbi-')
        self.name = 'baton_gabbi_' + uuid.uuid4().hex[:10]
        if BACKEND == 'sqlite':
            path = os.path.join(self.dir, 'placement.sqlite')
            self.baton, self.sqlalchemy = 'sqlite:' + path, 'sqlite:///' + path
        else:
            base, alchemy = SERVERS[BACKEND]
            engine = sqlalchemy.create_engine(alchemy + ('/test' if BACKEND == 'postgresql' else '/'),
                                              isolation_level='AUTOCOMMIT')
            with engine.connect() as c:
                c.execute(sqlalchemy.text('create database ' + self.name))
            engine.dispose()
            self.baton = base + '/' + self.name
            self.sqlalchemy = alchemy + '/' + self.name + ('?charset=utf8mb4' if BACKEND == 'mysql' else '')
        status = baton('db', 'upgrade', '--service', 'placement', '--db', self.baton,
                       stdout=subprocess.DEVNULL).wait()
        if status != 0:
            raise RuntimeError('baton db upgrade failed: %s' % status)

    def drop(self):
        if BACKEND != 'sqlite':
            base, alchemy = SERVERS[BACKEND]
            engine = sqlalchemy.create_engine(alchemy + ('/test' if BACKEND == 'postgresql' else '/'),
                                              isolation_level='AUTOCOMMIT')
            with engine.connect() as c:
                force = ' with (force)' if BACKEND == 'postgresql' else ''
                c.execute(sqlalchemy.text('drop database if exists ' + self.name + force))
            engine.dispose()
        subprocess.call(['rm', '-rf', self.dir])


def start_fixture(self):
    """APIFixture.start_fixture, with the database Baton's and no output capture."""
    self.conf_fixture = config_fixture.Config(cfg.ConfigOpts())
    self.conf_fixture.setUp()
    placement_conf.register_opts(self.conf_fixture.conf)
    self.conf_fixture.config(group='api', auth_strategy='noauth2')
    self.conf_fixture.config(group='oslo_policy', enforce_scope=self._secure_rbac,
                             enforce_new_defaults=self._secure_rbac)
    self.scratch = ScratchDatabase()
    self.conf_fixture.config(group='placement_database', connection=self.scratch.sqlalchemy)
    placement_db.configure(self.conf_fixture.conf)
    self.engine = sqlalchemy.create_engine(self.scratch.sqlalchemy)
    self.reset_facade = placement_db.placement_context_manager.patch_engine(self.engine)
    self.context = context.RequestContext()
    self.context.config = self.conf_fixture.conf
    policy_opts.set_defaults(self.conf_fixture.conf)
    self.conf_fixture.conf([], default_config_files=[])
    trait._TRAITS_SYNCED = False
    resource_class._RESOURCE_CLASSES_SYNCED = False
    deploy.update_database(self.conf_fixture.conf)
    self.policy_fixture = policy_fixture.PolicyFixture(self.conf_fixture)
    self.policy_fixture.setUp()
    RULES.clear()
    for name in ('RP_UUID', 'RP_NAME', 'PROJECT_ID', 'USER_ID', 'PROJECT_ID_ALT', 'USER_ID_ALT',
                 'INSTANCE_UUID', 'MIGRATION_UUID', 'CONSUMER_UUID', 'PARENT_PROVIDER_UUID',
                 'ALT_PARENT_PROVIDER_UUID'):
        os.environ[name] = uuidutils.generate_uuid()
    os.environ['CUSTOM_RES_CLASS'] = 'CUSTOM_IRON_NFV'


def stop_fixture(self):
    self.policy_fixture.cleanUp()
    self.reset_facade()
    self.engine.dispose()
    self.scratch.drop()
    self.conf_fixture.cleanUp()


def record_rules(rules, overwrite=True):
    RULES.update(rules)


real.APIFixture.start_fixture = start_fixture
real.APIFixture.stop_fixture = stop_fixture
policy_fixture.PolicyFixture.set_rules = staticmethod(record_rules)


def write_config(fixture):
    conf = fixture.conf_fixture.conf
    lines = ['[DEFAULT]', 'bind_host = 127.0.0.1', 'bind_port = %d' % PORT,
             '[placement_database]', 'connection = ' + fixture.scratch.baton,
             '[oslo_policy]', 'enforce_scope = %s' % conf.oslo_policy.enforce_scope,
             'enforce_new_defaults = %s' % conf.oslo_policy.enforce_new_defaults]
    if RULES:
        path = os.path.join(fixture.scratch.dir, 'policy.json')
        with open(path, 'w') as f:
            json.dump(RULES, f)
        lines.append('policy_file = ' + path)
    if 'cors' in conf and conf.cors.allowed_origin:
        lines += ['[cors]', 'allowed_origin = ' + ','.join(conf.cors.allowed_origin),
                  'allow_headers = ' + ','.join(conf.cors.allow_headers)]
    path = os.path.join(fixture.scratch.dir, 'placement.conf')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def with_baton(base):
    """The real fixture `base`, then Baton's server on what it built."""

    def start(self):
        base.start_fixture(self)
        self.log = open(os.path.join(self.scratch.dir, 'baton.log'), 'w')
        self.server = baton('placement', 'serve', '--config-file', write_config(self),
                            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(('127.0.0.1', PORT), timeout=1).close()
                return
            except OSError:
                if self.server.poll() is not None or time.time() > deadline:
                    raise RuntimeError('Baton did not start: see ' + self.log.name)
                time.sleep(0.1)

    def stop(self):
        self.server.terminate()
        self.server.wait()
        self.log.close()
        base.stop_fixture(self)

    return type(base.__name__, (base,), {'start_fixture': start, 'stop_fixture': stop})


fixture_module = types.ModuleType('baton_gabbi_fixtures')
for _name in dir(real):
    _value = getattr(real, _name)
    if isinstance(_value, type) and issubclass(_value, real.APIFixture):
        setattr(fixture_module, _name, with_baton(_value))


def main(argv):
    global BACKEND
    gabbits = argv[1]
    BACKEND = argv[2] if len(argv) > 2 else 'sqlite'
    words = argv[3:]
    with tempfile.TemporaryDirectory(prefix='baton-gabbits-') as chosen:
        if words:
            for name in os.listdir(gabbits):
                if any(word in name for word in words):
                    os.symlink(os.path.join(os.path.abspath(gabbits), name),
                               os.path.join(chosen, name))
            gabbits = chosen
        loader = unittest.TestLoader()
        suite = driver.build_tests(gabbits, loader, host='127.0.0.1', port=PORT,
                                   test_loader_name='baton', fixture_module=fixture_module)
        runner = unittest.TextTestRunner(verbosity=int(os.environ.get('VERBOSE', '1')))
        result = runner.run(suite)
    ran = result.testsRun - len(result.skipped)
    bad = len(result.failures) + len(result.errors)
    print('%s: %d passed of %d run (%d skipped, %d expected failures, %d failed)' % (
        BACKEND, ran - bad - len(result.expectedFailures), ran, len(result.skipped),
        len(result.expectedFailures), bad))
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
