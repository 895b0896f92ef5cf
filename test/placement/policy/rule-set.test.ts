/** Placement's rules under the two switches and a policy file's overrides. */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultPlacementConfig } from '../../../src/placement/config.ts';
import { PLACEMENT_RULE_DEFAULTS } from '../../../src/placement/policy/default-rules.ts';
import {
  type Credentials,
  createPolicyEnforcer,
  PolicyFileError,
  PolicyNotRegisteredError,
  PolicyScopeError,
} from '../../../src/placement/policy/index.ts';
import { expandImpliedRoles } from '../../../src/policy/credentials.ts';
import { RuleSet } from '../../../src/policy/rule-set.ts';

const who = (
  roles: string[],
  options: { system?: boolean; project?: string } = {},
): Credentials => ({
  userId: 'u1',
  // A system-scoped token carries no project.
  projectId: options.system ? undefined : (options.project ?? 'p1'),
  // As Keystone hands them out (and noauth2 presents them): implied roles included.
  roles: expandImpliedRoles(roles),
  systemScope: options.system ? 'all' : undefined,
  isAdminProject: true,
});

const projectAdmin = who(['admin']);
const projectMember = who(['member']);
const projectReader = who(['reader']);
const nobody = who([]);
const systemAdmin = who(['admin'], { system: true });
const systemReader = who(['reader'], { system: true });

const READ = 'placement:resource_providers:list';
const WRITE = 'placement:resource_providers:create';
const USAGES = 'placement:usages';
const own = { project_id: 'p1', user_id: 'u1' };
const other = { project_id: 'p2', user_id: 'u1' };

function rules(enforceScope: boolean, enforceNewDefaults: boolean, overrides = {}) {
  return new RuleSet({
    enforceScope,
    enforceNewDefaults,
    overrides,
    defaults: PLACEMENT_RULE_DEFAULTS,
  });
}

/** allowed / denied / 'scope' (refused by enforce_scope). */
function verdict(set: RuleSet, rule: string, credentials: Credentials, target = own) {
  try {
    return set.enforce(rule, credentials, target) ? 'allowed' : 'denied';
  } catch (error) {
    if (error instanceof PolicyScopeError) return 'scope';
    throw error;
  }
}

describe('implied roles', () => {
  it('admin implies member implies reader', () => {
    assert.deepEqual(expandImpliedRoles(['admin']), ['admin', 'member', 'reader']);
    assert.deepEqual(expandImpliedRoles(['member']), ['member', 'reader']);
    assert.deepEqual(expandImpliedRoles(['reader', 'Admin']), ['reader', 'Admin', 'member']);
    assert.deepEqual(expandImpliedRoles(['observer']), ['observer']);
  });
});

describe('registered rules', () => {
  it('are the real service rules, each registered once', () => {
    const names = PLACEMENT_RULE_DEFAULTS.map((r) => r.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(names.length, 38);
    const byName = new Map(PLACEMENT_RULE_DEFAULTS.map((r) => [r.name, r]));
    assert.equal(byName.get('system_admin_api')?.checkString, 'role:admin and system_scope:all');
    assert.equal(byName.get('system_reader_api')?.checkString, 'role:reader and system_scope:all');
    assert.equal(
      byName.get('project_reader_api')?.checkString,
      'role:reader and project_id:%(project_id)s',
    );
    assert.equal(byName.get(USAGES)?.checkString, 'rule:system_or_project_reader');
    assert.deepEqual(byName.get(USAGES)?.scopeTypes, ['system', 'project']);
    assert.equal(byName.get('placement:reshaper:reshape')?.checkString, 'rule:system_admin_api');
    assert.equal(byName.get('placement:allocations:list')?.checkString, 'rule:system_reader_api');
  });

  it('asking about an unregistered rule is a programming error', () => {
    assert.throws(
      () => rules(false, false).enforce('placement:nope', projectAdmin, own),
      PolicyNotRegisteredError,
    );
  });
});

describe('default switches (enforce_scope and enforce_new_defaults off)', () => {
  const set = rules(false, false);
  it('the deprecated role:admin still passes, whatever the scope', () => {
    assert.equal(verdict(set, READ, projectAdmin), 'allowed');
    assert.equal(verdict(set, WRITE, projectAdmin), 'allowed');
    assert.equal(verdict(set, WRITE, systemAdmin), 'allowed');
  });
  it('a token without admin is refused, except where the new defaults let it in', () => {
    assert.equal(verdict(set, READ, nobody), 'denied');
    assert.equal(verdict(set, READ, projectMember), 'denied');
    assert.equal(verdict(set, WRITE, systemReader), 'denied');
    assert.equal(verdict(set, READ, systemReader), 'allowed', 'new default: system reader');
    assert.equal(verdict(set, USAGES, projectReader, own), 'allowed', 'new default: own project');
    assert.equal(verdict(set, USAGES, projectReader, other), 'denied');
  });
});

describe('enforce_new_defaults on, enforce_scope off', () => {
  const set = rules(false, true);
  it('role:admin alone no longer passes: system scope is needed', () => {
    assert.equal(verdict(set, READ, projectAdmin), 'denied');
    assert.equal(verdict(set, WRITE, projectAdmin), 'denied');
    assert.equal(verdict(set, WRITE, systemAdmin), 'allowed');
    assert.equal(verdict(set, READ, systemAdmin), 'allowed', 'admin implies reader');
  });
  it('a system reader reads but does not write', () => {
    assert.equal(verdict(set, READ, systemReader), 'allowed');
    assert.equal(verdict(set, WRITE, systemReader), 'denied');
  });
  it('a project reader sees the usages of its own project only', () => {
    assert.equal(verdict(set, USAGES, projectReader, own), 'allowed');
    assert.equal(verdict(set, USAGES, projectMember, own), 'allowed', 'member implies reader');
    assert.equal(verdict(set, USAGES, projectReader, other), 'denied');
    assert.equal(verdict(set, USAGES, systemReader, other), 'allowed');
    assert.equal(verdict(set, READ, projectReader), 'denied');
  });
  it('a system-scoped token has no project to match', () => {
    const systemProjectReader = who(['reader'], { system: true, project: 'p1' });
    const set2 = rules(false, true, { [USAGES]: 'rule:project_reader_api' });
    assert.equal(verdict(set2, USAGES, systemProjectReader, own), 'denied');
  });
});

describe('enforce_scope on', () => {
  it('a project-scoped token is refused on system rules before any check', () => {
    const set = rules(true, false);
    assert.equal(verdict(set, READ, projectAdmin), 'scope');
    assert.equal(verdict(set, WRITE, systemAdmin), 'allowed');
    assert.equal(
      verdict(set, USAGES, projectAdmin, other),
      'allowed',
      'usages allow project scope',
    );
  });
  it('with the new defaults too: system reader reads, project reader gets its usages', () => {
    const set = rules(true, true);
    assert.equal(verdict(set, READ, systemReader), 'allowed');
    assert.equal(verdict(set, WRITE, systemReader), 'denied');
    assert.equal(verdict(set, READ, projectReader), 'scope');
    assert.equal(verdict(set, USAGES, projectReader, own), 'allowed');
    assert.equal(verdict(set, USAGES, projectReader, other), 'denied');
  });
  it('the scope error names the rule', () => {
    assert.throws(
      () => rules(true, true).enforce(READ, projectAdmin, own),
      (error: unknown) => error instanceof PolicyScopeError && error.rule === READ,
    );
  });
});

describe('policy file overrides', () => {
  it('an overridden rule replaces the default, deprecated alternative included', () => {
    const set = rules(false, false, { [READ]: '@', system_admin_api: 'role:operator' });
    assert.equal(verdict(set, READ, nobody), 'allowed');
    assert.equal(verdict(set, WRITE, who(['operator'])), 'allowed');
    assert.equal(verdict(set, WRITE, projectAdmin), 'denied', 'role:admin is no longer ORed in');
  });
  it('custom rules may be defined and referenced', () => {
    const set = rules(false, false, { ops: 'role:ops', [WRITE]: 'rule:ops or rule:admin_api' });
    assert.equal(verdict(set, WRITE, who(['ops'])), 'allowed');
    assert.equal(verdict(set, WRITE, projectAdmin), 'allowed');
    assert.equal(verdict(set, WRITE, projectMember), 'denied');
  });
  it('a check string that does not parse, or a cycle, is refused with the rule name', () => {
    assert.throws(
      () => rules(false, false, { [READ]: 'role:admin and' }),
      /rule 'placement:resource_providers:list'/,
    );
    assert.throws(() => rules(false, false, { a: 'rule:b', b: 'rule:a' }), /form a cycle/);
  });
});

describe('createPolicyEnforcer', () => {
  const config = defaultPlacementConfig('sqlite::memory:');

  async function file(name: string, text: string) {
    const dir = await mkdtemp(join(tmpdir(), 'placement-policy-'));
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  it('defaults without a policy file', async () => {
    const enforcer = await createPolicyEnforcer(config);
    assert.equal(enforcer.enforce(READ, projectAdmin, own), true);
    assert.equal(enforcer.enforce(READ, nobody, own), false);
  });

  it('reads YAML and JSON policy files', async () => {
    const yaml = await file('policy.yaml', `# open listing\n"${READ}": "@"\n`);
    const json = await file('policy.json', JSON.stringify({ [READ]: '@' }));
    for (const policyFile of [yaml, json]) {
      const enforcer = await createPolicyEnforcer({ ...config, policyFile });
      assert.equal(enforcer.enforce(READ, nobody, own), true, policyFile);
      assert.equal(enforcer.enforce(WRITE, nobody, own), false, policyFile);
    }
  });

  it('an empty policy file changes nothing', async () => {
    const enforcer = await createPolicyEnforcer({
      ...config,
      policyFile: await file('p.yaml', ''),
    });
    assert.equal(enforcer.enforce(READ, projectAdmin, own), true);
  });

  it('a bad policy file is a startup error naming the file and the problem', async () => {
    const cases: [string, RegExp][] = [
      ['[unclosed: {', /neither JSON nor YAML/],
      ['- a\n- b\n', /expected a mapping/],
      [`"${READ}": 3\n`, /must be a check string/],
      [`"${READ}": "role:admin or"\n`, /rule 'placement:resource_providers:list': cannot parse/],
    ];
    for (const [text, reason] of cases) {
      const policyFile = await file('bad.yaml', text);
      await assert.rejects(createPolicyEnforcer({ ...config, policyFile }), (error: unknown) => {
        assert.ok(error instanceof PolicyFileError, String(error));
        assert.ok(error.message.startsWith(`policy file ${policyFile}: `), error.message);
        assert.match(error.message, reason);
        return true;
      });
    }
    await assert.rejects(
      createPolicyEnforcer({ ...config, policyFile: '/nonexistent/policy.yaml' }),
      /policy file \/nonexistent\/policy.yaml: no such file/,
    );
  });
});
