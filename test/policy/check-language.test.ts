/** oslo.policy's check language: parsing and evaluation, without any I/O. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PolicySyntaxError, parseRule } from '../../src/policy/check-parser.ts';
import {
  type Check,
  evaluate,
  interpolate,
  type PolicyCredentials,
} from '../../src/policy/checks.ts';

const creds = (over: Partial<PolicyCredentials> = {}): PolicyCredentials => ({
  user_id: 'alice',
  project_id: 'p1',
  roles: ['reader'],
  system_scope: null,
  ...over,
});

function allows(
  rule: unknown,
  credentials: PolicyCredentials = creds(),
  target: Record<string, unknown> = {},
  rules: Record<string, string> = {},
): boolean {
  return evaluate(parseRule(rule), {
    target,
    credentials,
    rule: (name) => (Object.hasOwn(rules, name) ? parseRule(rules[name]) : undefined),
  });
}

describe('check strings', () => {
  it('@ allows, ! denies, an empty string allows', () => {
    assert.equal(allows('@'), true);
    assert.equal(allows('!'), false);
    assert.equal(allows(''), true);
    assert.equal(allows('   '), true);
  });

  it('role: matches any held role, case-insensitively', () => {
    assert.equal(allows('role:reader'), true);
    assert.equal(allows('role:READER'), true);
    assert.equal(allows('role:admin'), false);
    assert.equal(allows('role:%(wanted)s', creds(), { wanted: 'reader' }), true);
    assert.equal(allows('role:%(wanted)s', creds(), {}), false, 'a missing target key denies');
  });

  it('generic key:%(target)s compares a credential with the target', () => {
    assert.equal(allows('project_id:%(project_id)s', creds(), { project_id: 'p1' }), true);
    assert.equal(allows('project_id:%(project_id)s', creds(), { project_id: 'p2' }), false);
    assert.equal(allows('project_id:%(project_id)s', creds(), {}), false);
    assert.equal(allows('user_id:%(user_id)s', creds(), { user_id: 'alice' }), true);
    assert.equal(allows('user_id:alice'), true, 'a literal match');
    assert.equal(allows('user_id:bob'), false);
    assert.equal(allows('unknown_key:x'), false, 'a credential that is not there denies');
  });

  it('system_scope:all needs a system-scoped token', () => {
    assert.equal(allows('system_scope:all'), false);
    assert.equal(allows('system_scope:all', creds({ system_scope: 'all' })), true);
  });

  it('a Python literal on the left compares with the interpolated right', () => {
    assert.equal(allows("'p1':%(project_id)s", creds(), { project_id: 'p1' }), true);
    assert.equal(allows('True:%(flag)s', creds(), { flag: true }), true);
    assert.equal(allows('True:%(flag)s', creds(), { flag: false }), false);
    assert.equal(allows('42:%(n)s', creds(), { n: '42' }), true);
  });

  it('dotted keys walk nested credentials; a list matches on any element', () => {
    const nested = creds({ token: { groups: [{ id: 'g1' }, { id: 'g2' }] } });
    assert.equal(allows('token.groups.id:g2', nested), true);
    assert.equal(allows('token.groups.id:g3', nested), false);
  });

  it('and binds tighter than or; not negates; parentheses group', () => {
    assert.equal(allows('role:admin or role:reader and user_id:alice'), true);
    assert.equal(allows('role:admin or role:reader and user_id:bob'), false);
    assert.equal(allows('(role:admin or role:reader) and user_id:bob'), false);
    assert.equal(allows('((role:admin) or (role:reader)) and (user_id:alice)'), true);
    assert.equal(allows('not role:admin'), true);
    assert.equal(allows('not role:reader'), false);
    assert.equal(allows('not role:admin and role:reader'), true);
    assert.equal(allows('not (role:admin or role:reader)'), false);
    assert.equal(allows('role:reader AND NOT role:admin'), true, 'keywords in any case');
  });

  it('rule:name evaluates another rule; an unknown rule denies', () => {
    const rules = { readers: 'role:reader', admins: 'role:admin' };
    assert.equal(allows('rule:readers', creds(), {}, rules), true);
    assert.equal(allows('rule:admins', creds(), {}, rules), false);
    assert.equal(allows('rule:nope', creds(), {}, rules), false);
    assert.equal(allows('rule:admins or rule:readers', creds(), {}, rules), true);
  });

  it('the legacy list form is an OR of ANDs', () => {
    assert.equal(allows([]), true);
    assert.equal(allows([['role:admin'], ['role:reader', 'user_id:alice']]), true);
    assert.equal(allows([['role:admin'], ['role:reader', 'user_id:bob']]), false);
    assert.equal(allows([[]]), false);
  });

  it('refuses what oslo.policy would not understand', () => {
    for (const bad of [
      'role:admin and',
      'or role:admin',
      '(role:admin',
      'role:admin)',
      'admin',
      'role:admin role:reader',
      'not',
      "'quoted'",
      'http://example.com/check',
    ]) {
      assert.throws(() => parseRule(bad), PolicySyntaxError, bad);
    }
    assert.throws(() => parseRule(42), PolicySyntaxError);
  });

  it('parses to the expected tree', () => {
    const expected: Check = {
      kind: 'or',
      checks: [
        {
          kind: 'and',
          checks: [
            { kind: 'role', match: 'admin' },
            { kind: 'generic', key: 'system_scope', match: 'all' },
          ],
        },
        { kind: 'role', match: 'admin' },
      ],
    };
    assert.deepEqual(parseRule('role:admin and system_scope:all or role:admin'), expected);
  });
});

describe('interpolate', () => {
  it('formats %(name)s and %% like Python', () => {
    assert.equal(interpolate('%(a)s-%(b)s', { a: 'x', b: 1 }), 'x-1');
    assert.equal(interpolate('100%%', {}), '100%');
    assert.equal(interpolate('%(a)s', { a: null }), 'None');
    assert.equal(interpolate('%(a)s', {}), undefined);
    assert.equal(interpolate('plain', {}), 'plain');
  });
});
