/**
 * The API's safe default (checkBaremetalApiAuth, the toolkit's checkListenSafety): `noauth`
 * listens on loopback only; `[api] insecure_noauth_on_any_address` accepts the risk; Ironic's
 * other `[DEFAULT] auth_strategy` values read (the conductor shares the file): `keystone` needs
 * its `[keystone_authtoken]` and listens anywhere, as `http_basic` does.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { UnsafeListenError } from '../../../src/auth/index.ts';
import {
  checkBaremetalApiAuth,
  planBaremetal,
  startBaremetalApi,
} from '../../../src/baremetal/service.ts';
import { ConfigFileError } from '../../../src/service/index.ts';

const planAt = (flags: Record<string, unknown>) =>
  planBaremetal({ flags: { databaseUrl: 'sqlite::memory:', ...flags } });

describe('the bare metal API listens beyond loopback only when told to', () => {
  it('accepts loopback addresses and refuses others with noauth', async () => {
    for (const host of ['127.0.0.1', '127.0.0.53', '::1', 'localhost']) {
      checkBaremetalApiAuth((await planAt({ apiHostIp: host })).config);
    }
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'ironic.example.org']) {
      const { config } = await planAt({ apiHostIp: host });
      assert.throws(
        () => checkBaremetalApiAuth(config),
        (error: Error) =>
          error instanceof UnsafeListenError &&
          error.message.startsWith(
            `baremetal-api will not listen on ${host} with auth_strategy noauth:`,
          ),
      );
    }
  });

  it('insecure_noauth_on_any_address accepts the risk', async () => {
    const { config } = await planAt({ apiHostIp: '0.0.0.0', insecureNoauthOnAnyAddress: true });
    checkBaremetalApiAuth(config);
  });

  it('startBaremetalApi checks before it opens anything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-listen-'));
    try {
      const plan = await planBaremetal({
        flags: { databaseUrl: `sqlite:${join(dir, 'never.sqlite')}`, apiHostIp: '0.0.0.0' },
      });
      await assert.rejects(startBaremetalApi(plan), UnsafeListenError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keystone needs [keystone_authtoken] and may then listen anywhere; http_basic too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-auth-'));
    try {
      const file = join(dir, 'ironic.conf');
      await writeFile(file, '[DEFAULT]\nauth_strategy = keystone\n[api]\nhost_ip = 0.0.0.0\n');
      const plan = () =>
        planBaremetal({ configFile: file, flags: { databaseUrl: 'sqlite::memory:' } });
      const { config } = await plan();
      assert.equal(config.api.authStrategy, 'keystone');
      assert.throws(
        () => checkBaremetalApiAuth(config),
        (error: Error) =>
          error instanceof ConfigFileError &&
          /\[keystone_authtoken\] auth_url is required/.test(error.message),
      );
      await writeFile(
        file,
        [
          '[DEFAULT]',
          'auth_strategy = keystone',
          '[api]',
          'host_ip = 0.0.0.0',
          '[keystone_authtoken]',
          'auth_url = http://127.0.0.1:5000',
          'auth_type = password',
          'username = ironic',
          'password = secret',
          'project_name = service',
          'user_domain_name = Default',
          'project_domain_name = Default',
          '',
        ].join('\n'),
      );
      const keystone = checkBaremetalApiAuth((await plan()).config);
      assert.equal(keystone?.authUrl, 'http://127.0.0.1:5000/v3');
      // http_basic checks a user and password on every request: it may listen anywhere.
      await writeFile(file, '[DEFAULT]\nauth_strategy = http_basic\n[api]\nhost_ip = 0.0.0.0\n');
      const basic = (await plan()).config;
      assert.equal(checkBaremetalApiAuth(basic), undefined);
      assert.equal(basic.api.httpBasicAuthUserFile, '/etc/ironic/htpasswd');
      await writeFile(file, '[DEFAULT]\nauth_strategy = token\n');
      await assert.rejects(
        plan(),
        (error: Error) =>
          error instanceof ConfigFileError &&
          /'token' is not one of keystone, noauth, http_basic/.test(error.message),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
