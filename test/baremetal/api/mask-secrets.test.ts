/** Secrets hidden in node bodies as oslo.utils' mask_dict_password hides them (the real one). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maskDictPassword } from '../../../src/baremetal/api/mask-secrets.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

const DICTS = [
  { ipmi_password: 'p', ipmi_username: 'admin', ipmi_address: '10.0.0.1' },
  { redfish_Password: 'x', auth_token: 't', 'private-key': 'k', Token: 1, list: ['password=x'] },
  { nested: { secret: 's', deeper: { encrypted_key: 'e', ok: 'fine' } }, n: null },
  { cmd: 'run --password hunter2 now', xml: '<password>abc</password>', kv: 'password = "q"' },
  { json: '{"admin_pass": "v", "other": "w"}', plain: 'no secrets here', num: 5 },
  { configdrive: 'abc', image_source: 'http://x?token=abc', hint: "'token' : 'zz'" },
];

describe('maskDictPassword', () => {
  const skip = ironicPythonMissing();

  it('hides what oslo hides, and nothing else', { skip }, async () => {
    const real = await runIronicPython<unknown[]>(`
import json
from oslo_utils import strutils
print(json.dumps([strutils.mask_dict_password(d, '******') for d in json.loads(${JSON.stringify(JSON.stringify(DICTS))})]))
`);
    assert.deepEqual(
      DICTS.map((d) => maskDictPassword(d, '******')),
      real,
    );
  });

  it('leaves its argument as it was', () => {
    const before = JSON.stringify(DICTS);
    for (const d of DICTS) maskDictPassword(d, '******');
    assert.equal(JSON.stringify(DICTS), before);
  });
});
