/**
 * External events (1.54), the ramdisk agent's lookup and heartbeat (1.22), and HTTP basic
 * authentication (a second real service, under `auth_strategy = http_basic`) held to the real
 * Ironic 21.4.4: the same requests, the same answers
 * (support/same-answers.ts). Without the real service installed the comparison is skipped with
 * the reason; under CI=true it fails.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { httpBasicAuthenticator } from '../../../src/baremetal/api/http-basic-users.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { EVENT_SCENARIOS } from './scenarios/events.ts';
import { HTTP_BASIC_ALICE, HTTP_BASIC_SCENARIO, HTTP_BASIC_USERS } from './scenarios/http-basic.ts';
import { RAMDISK_SCENARIOS, RAMDISK_TOKEN_SCENARIO } from './scenarios/ramdisk.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';
import { assertSameAnswers } from './support/same-answers.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

describe('events and the ramdisk endpoints against the real Ironic 21.4.4', {
  skip: missing,
}, () => {
  let real: RealIronic;
  let baton: BatonApi;

  before(async () => {
    [real, baton] = await Promise.all([startRealIronic(), startBatonApi()]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of [...EVENT_SCENARIOS, ...RAMDISK_SCENARIOS, RAMDISK_TOKEN_SCENARIO]) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
});

describe('auth_strategy = http_basic against the real Ironic 21.4.4', { skip: missing }, () => {
  let real: RealIronic;
  let baton: BatonApi;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-basic-'));
    const users = join(dir, 'htpasswd');
    await writeFile(users, `${HTTP_BASIC_USERS.join('\n')}\n`);
    [real, baton] = await Promise.all([
      startRealIronic({
        config: { DEFAULT: { auth_strategy: 'http_basic', http_basic_auth_user_file: users } },
        readyHeaders: { Authorization: HTTP_BASIC_ALICE },
      }),
      httpBasicAuthenticator(users).then((authenticator) =>
        startBatonApi({ auth: { authenticator } }),
      ),
    ]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it(HTTP_BASIC_SCENARIO.title, () => assertSameAnswers(HTTP_BASIC_SCENARIO, real, baton));
});
