/**
 * Ironic 21.4's default policy on allocations and deploy templates (its defaults:
 * `enforce_scope` and `enforce_new_defaults` off), with the credentials keystonemiddleware sets
 * given as headers: a project member creates allocations owned by its project, lists only
 * those, and is told another project's does not exist; a system reader sees every one; deploy
 * templates are the system's (a project member is refused; a project admin passes as the
 * legacy `is_admin` while `enforce_new_defaults` is off, as in the real service).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BatonApi } from './support/baton-api.ts';
import {
  projectUser,
  SYSTEM_ADMIN,
  SYSTEM_READER,
  startUnderDefaultPolicy,
} from './support/personas.ts';

const OWNER = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const OTHER = '0123456789abcdef0123456789abcdef';
const VERSION = { 'x-openstack-ironic-api-version': '1.82' };

describe("Ironic's default policy on allocations and deploy templates", () => {
  let api: BatonApi;

  before(async () => {
    api = await startUnderDefaultPolicy();
  });
  after(() => api?.close());

  const call = (as: Record<string, string>, method: string, url: string, payload?: unknown) =>
    api.request({
      method: method as 'GET',
      url,
      headers: { ...as, ...VERSION },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("a project member's allocation is owned by its project; it lists only its own", async () => {
    const mine = await call(projectUser(OWNER, 'member'), 'POST', '/v1/allocations', {
      resource_class: 'rc',
      name: 'mine',
    });
    assert.equal(mine.statusCode, 201, mine.body);
    assert.equal(mine.json().owner, OWNER);
    const theirs = await call(SYSTEM_ADMIN, 'POST', '/v1/allocations', {
      resource_class: 'rc',
      name: 'theirs',
      owner: OTHER,
    });
    assert.equal(theirs.statusCode, 201, theirs.body);
    const listed = await call(projectUser(OWNER, 'member'), 'GET', '/v1/allocations?fields=name');
    assert.deepEqual(
      listed.json().allocations.map((a: { name: string }) => a.name),
      ['mine'],
    );
    const asking = await call(
      projectUser(OWNER, 'member'),
      'GET',
      `/v1/allocations?owner=${OTHER}`,
    );
    assert.equal(asking.statusCode, 403);
    const all = await call(SYSTEM_READER, 'GET', '/v1/allocations?fields=name');
    assert.deepEqual(
      all.json().allocations.map((a: { name: string }) => a.name),
      ['mine', 'theirs'],
    );
  });

  it("another project's allocation does not exist for a member; its own can be changed", async () => {
    const hidden = await call(projectUser(OWNER, 'member'), 'GET', '/v1/allocations/theirs');
    assert.equal(hidden.statusCode, 404);
    assert.match(hidden.body, /Allocation theirs could not be found/);
    const patched = await call(projectUser(OWNER, 'member'), 'PATCH', '/v1/allocations/mine', [
      { op: 'add', path: '/extra/k', value: 'v' },
    ]);
    assert.equal(patched.statusCode, 200, patched.body);
    const reader = await call(projectUser(OWNER, 'reader'), 'PATCH', '/v1/allocations/mine', [
      { op: 'add', path: '/extra/k', value: 'w' },
    ]);
    assert.equal(reader.statusCode, 403);
    assert.match(reader.body, /baremetal:allocation:update/);
  });

  it("deploy templates are the system admin's to write and a system reader's to read", async () => {
    const body = {
      name: 'CUSTOM_POLICY',
      steps: [{ interface: 'bios', step: 'x', args: {}, priority: 1 }],
    };
    const refused = await call(projectUser(OWNER, 'member'), 'POST', '/v1/deploy_templates', body);
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /baremetal:deploy_template:create/);
    assert.equal((await call(SYSTEM_ADMIN, 'POST', '/v1/deploy_templates', body)).statusCode, 201);
    assert.equal((await call(SYSTEM_READER, 'GET', '/v1/deploy_templates')).statusCode, 200);
    assert.equal(
      (await call(projectUser(OWNER, 'member'), 'GET', '/v1/deploy_templates')).statusCode,
      403,
    );
  });
});
