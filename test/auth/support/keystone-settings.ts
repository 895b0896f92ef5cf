/** `[keystone_authtoken]` for a test's real Keystone, read the way a service reads its file. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import {
  KEYSTONE_AUTHTOKEN_DEFAULTS,
  KEYSTONE_AUTHTOKEN_OPTIONS,
  type KeystoneAuthConfig,
  type KeystoneAuthtokenSettings,
  keystoneAuthConfigOf,
} from '../../../src/auth/index.ts';
import { parseIni } from '../../../src/service/config-ini.ts';
import { readConfigOptions } from '../../../src/service/config-options.ts';
import { PASSWORD, type RealKeystone, USERS } from '../../support/real-keystone.ts';

/** The options a deployment writes for its service user, plus `extra`. */
export function authtokenOptions(
  keystone: RealKeystone,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    www_authenticate_uri: keystone.url,
    auth_url: keystone.url,
    auth_type: 'password',
    username: USERS.service.name,
    password: PASSWORD,
    project_name: USERS.service.project,
    user_domain_name: 'Default',
    project_domain_name: 'Default',
    ...extra,
  };
}

export function iniSection(name: string, options: Readonly<Record<string, string>>): string {
  return [`[${name}]`, ...Object.entries(options).map(([k, v]) => `${k} = ${v}`), ''].join('\n');
}

/** The settings a file with these options gives, over the defaults. */
export function settingsFrom(options: Readonly<Record<string, string>>): KeystoneAuthtokenSettings {
  const values = readConfigOptions(
    parseIni(iniSection('keystone_authtoken', options)),
    KEYSTONE_AUTHTOKEN_OPTIONS,
    '/',
  );
  return { ...KEYSTONE_AUTHTOKEN_DEFAULTS, ...values } as KeystoneAuthtokenSettings;
}

export function configFrom(options: Readonly<Record<string, string>>): KeystoneAuthConfig {
  return keystoneAuthConfigOf(settingsFrom(options));
}

export interface MiddlewareAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | null;
  /** The request headers the app behind auth_token saw (lower case). */
  readonly seen: Record<string, string> | null;
}

/** Runs requests through the real keystonemiddleware (tests/auth/support/*.py). */
export async function throughKeystonemiddleware(
  conf: Readonly<Record<string, string>>,
  requests: readonly { path?: string; method?: string; headers: Record<string, string> }[],
): Promise<MiddlewareAnswer[]> {
  const script = join(import.meta.dirname, 'keystonemiddleware_headers.py');
  return await new Promise((resolve, reject) => {
    const child = execFile(
      '/usr/bin/python3',
      [script],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as MiddlewareAnswer[]);
      },
    );
    child.stdin?.end(JSON.stringify({ conf, requests }));
  });
}
