/**
 * oslo.utils' mask_dict_password and mask_password, which the real API applies to a node's
 * `driver_info` and `instance_info` before showing them (with the secret `******`): a key
 * naming a secret hides its value; a string value has the secrets it spells out (`password=x`,
 * `"token": "x"`, `--password x`...) hidden; nested dictionaries likewise.
 */

const SANITIZE_KEYS = [
  'adminpass',
  'admin_pass',
  'password',
  'admin_password',
  'auth_token',
  'new_pass',
  'auth_password',
  'secret_uuid',
  'secret',
  'sys_pswd',
  'token',
  'configdrive',
  'chappassword',
  'encrypted_key',
  'private_key',
  'fernetkey',
  'sslkey',
  'passphrase',
  'cephclusterfsid',
  'octaviaheartbeatkey',
  'rabbitcookie',
  'cephmanilaclientkey',
  'pacemakerremoteauthkey',
  'designaterndckey',
  'cephadminkey',
  'heatauthencryptionkey',
  'cephclientkey',
  'keystonecredential',
  'barbicansimplecryptokek',
  'cephrgwkey',
  'swifthashsuffix',
  'migrationsshkey',
  'cephmdskey',
  'cephmonkey',
];

// oslo's patterns, the key put in place of %(key)s; each pair keeps groups 1 and 2.
const PATTERNS_2 = [
  String.raw`(KEY[0-9]*\s*[=]\s*[\"\'])[^\"\']*([\"\'])`,
  String.raw`(KEY[0-9]*\s*[=]\s*[\"])[^\"]*([\"])`,
  String.raw`(KEY[0-9]*\s*[=]\s*[\'])[^\']*([\'])`,
  String.raw`(KEY[0-9]*\s+[\"\'])[^\"\']*([\"\'])`,
  String.raw`([-]{2}KEY[0-9]*\s+)[^\'^\"^=^\s]+([\s]*)`,
  '(<KEY[0-9]*>)[^<]*(</KEY[0-9]*>)',
  String.raw`([\"\']KEY[0-9]*[\"\']\s*:\s*[\"\'])[^\"\']*([\"\'])`,
  String.raw`([\'"][^"\']*KEY[0-9]*[\'"]\s*:\s*u?[\'"])[^\"\']*([\'"])`,
  String.raw`([\'"][^\'"]*KEY[0-9]*[\'"]\s*,\s*\'--?[A-z]+\'\s*,\s*u?[\'"])[^\"\']*([\'"])`,
  String.raw`(KEY[0-9]*\s*--?[A-z]+\s*)\S+(\s*)`,
];
const PATTERNS_1 = [String.raw`(KEY[0-9]*\s*[=]\s*)[^\s^\'^\"]+`];
const PATTERNS_WILDCARD = [
  String.raw`([\'\"][^\"\']*KEY[0-9]*[\'\"]\s*:\s*u?[\'\"].*[\'\"])[^\"\']*([\'\"])`,
];

const compile = (patterns: readonly string[], key: string) =>
  patterns.map((pattern) => new RegExp(pattern.replaceAll('KEY', key), 'gis'));

const COMPILED = new Map(
  SANITIZE_KEYS.map((key) => [
    key,
    {
      two: compile(PATTERNS_2, key),
      one: compile(PATTERNS_1, key),
      wildcard: compile(PATTERNS_WILDCARD, key),
    },
  ]),
);

/** mask_password: the secrets a message spells out, hidden. */
export function maskPassword(message: string, secret: string): string {
  let out = message;
  for (const key of SANITIZE_KEYS) {
    if (!out.toLowerCase().includes(key)) continue;
    const patterns = COMPILED.get(key);
    if (patterns === undefined) continue;
    for (const pattern of patterns.two)
      out = out.replace(pattern, (_m, a, b) => `${a}${secret}${b}`);
    for (const pattern of patterns.one) out = out.replace(pattern, (_m, a) => `${a}${secret}`);
    for (const pattern of patterns.wildcard) out = out.replace(pattern, (_m, a) => `${a}`);
  }
  return out;
}

/** mask_dict_password: a copy with every secret hidden. */
export function maskDictPassword(
  dictionary: Readonly<Record<string, unknown>>,
  secret: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(dictionary)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = maskDictPassword(value as Record<string, unknown>, secret);
      continue;
    }
    const lowered = key.toLowerCase();
    if (SANITIZE_KEYS.some((name) => lowered.includes(name))) out[key] = secret;
    else out[key] = typeof value === 'string' ? maskPassword(value, secret) : value;
  }
  return out;
}
