/**
 * The bare metal defaults are Ironic 21.4's, rule for rule: the installed ironic's
 * `policy.list_policies()` (Debian's python3-ironic 21.4) read by /usr/bin/python3 and compared
 * with BAREMETAL_RULE_DEFAULTS (name, check string, scope types, the deprecated check string).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { BAREMETAL_RULE_DEFAULTS } from '../../../src/baremetal/policy/default-rules.ts';
import { RuleSet } from '../../../src/policy/index.ts';

const IRONIC_POLICY = '/usr/lib/python3/dist-packages/ironic/common/policy.py';

const DUMP = `
import json
from ironic.common import policy
rules = []
for rule in policy.list_policies():
    deprecated = getattr(rule, 'deprecated_rule', None)
    # Rules registered without one carry an empty list in this oslo.policy.
    if isinstance(deprecated, list):
        deprecated = deprecated[0] if deprecated else None
    rules.append({
        'name': rule.name,
        'checkString': rule.check_str,
        'scopeTypes': rule.scope_types,
        'deprecatedCheckString': deprecated.check_str if deprecated is not None else None,
    })
print(json.dumps(rules))
`;

function skipReason(): string | undefined {
  if (existsSync(IRONIC_POLICY)) return undefined;
  const reason = `${IRONIC_POLICY} is missing (apt-get install python3-ironic)`;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${reason}`);
  return reason;
}

describe("Ironic 21.4's registered rules", { skip: skipReason() }, () => {
  it('are the bare metal defaults, in the same order', async () => {
    const { stdout } = await promisify(execFile)('/usr/bin/python3', ['-c', DUMP], {
      env: { ...process.env, PYTHONWARNINGS: 'ignore' },
    });
    const real = (JSON.parse(stdout) as Record<string, unknown>[]).map((rule) => ({
      name: rule.name,
      checkString: rule.checkString,
      ...(rule.scopeTypes === null ? {} : { scopeTypes: rule.scopeTypes }),
      ...(rule.deprecatedCheckString === null
        ? {}
        : { deprecatedCheckString: rule.deprecatedCheckString }),
    }));
    assert.equal(real.length, 110);
    assert.deepEqual(BAREMETAL_RULE_DEFAULTS, real);
  });

  it('parse, with and without the deprecated checks', () => {
    for (const enforceNewDefaults of [false, true]) {
      const rules = new RuleSet({
        enforceScope: true,
        enforceNewDefaults,
        defaults: BAREMETAL_RULE_DEFAULTS,
      });
      assert.ok(rules.rule('baremetal:node:get'));
    }
  });
});
