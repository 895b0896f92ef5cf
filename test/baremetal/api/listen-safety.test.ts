/**
 * The API's safe default (checkBaremetalApiAuth, the toolkit's checkListenSafety): `noauth`
 * listens on loopback only; `[api] insecure_noauth_on_any_address` accepts the risk; Ironic's
 * other `[DEFAULT] auth_strategy` values read (the conductor shares the file) and the API
 * refuses them (not served yet).
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

  it("Ironic's other auth strategies read from a file, and the API refuses them", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-auth-'));
    try {
      const file = join(dir, 'ironic.conf');
      await writeFile(file, '[DEFAULT]\nauth_strategy = keystone\n');
      const { config } = await planBaremetal({
        configFile: file,
        flags: { databaseUrl: 'sqlite::memory:' },
      });
      assert.equal(config.api.authStrategy, 'keystone', 'the conductor reads the file as is');
      assert.throws(
        () => checkBaremetalApiAuth(config),
        (error: Error) =>
          error instanceof ConfigFileError &&
          error.message ===
            "[DEFAULT] auth_strategy: 'keystone' is not served by Baton's bare metal API in this release; use noauth",
      );
      await writeFile(file, '[DEFAULT]\nauth_strategy = token\n');
      await assert.rejects(
        planBaremetal({ configFile: file, flags: { databaseUrl: 'sqlite::memory:' } }),
        (error: Error) =>
          error instanceof ConfigFileError &&
          /'token' is not one of keystone, noauth, http_basic/.test(error.message),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
