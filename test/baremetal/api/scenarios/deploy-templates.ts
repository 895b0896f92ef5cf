/**
 * Deploy templates (API 1.55) unpinned on both sides (real-ironic-allocations.test.ts): the
 * version gates, the body's checks (trait names, step schema, duplicates), lists, PATCH,
 * secrets in step arguments, and their use by a deployment: the node's instance traits
 * (`instance_info.traits`, written by an allocation or by hand) name the templates whose steps
 * join the deployment's, checked as the real conductor checks them (validate, deploy).
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';
import { patch, post } from './requests.ts';

const V = '1.82';
const T1 = 'de91a7e0-0000-4d2e-ae87-c02d7f33c001';
const T2 = 'de91a7e0-0000-4d2e-ae87-c02d7f33c002';
const D1 = 'de91a7e0-03f2-4d2e-ae87-c02d7f33c0d1';
const D2 = 'de91a7e0-03f2-4d2e-ae87-c02d7f33c0d2';

const step = (iface: string, name: string, priority: unknown = 10, args: unknown = {}) => ({
  interface: iface,
  step: name,
  args,
  priority,
});
const template = (name: string, steps: unknown[], extra: Record<string, unknown> = {}) =>
  post('/v1/deploy_templates', { name, steps, ...extra });
const provision = (uuid: string, target: string): Exchange => ({
  method: 'PUT',
  path: `/v1/nodes/${uuid}/states/provision`,
  version: V,
  body: { target },
  settle: uuid,
});
const instanceTraits = (uuid: string, traits: unknown): Exchange =>
  patch(`/v1/nodes/${uuid}`, [{ op: 'add', path: '/instance_info/traits', value: traits }]);
const nodeView = (uuid: string): Exchange => ({
  path: `/v1/nodes/${uuid}?fields=provision_state,last_error,instance_info,driver_internal_info`,
  version: V,
});
const validate = (uuid: string): Exchange => ({
  path: `/v1/nodes/${uuid}/validate`,
  version: V,
});

export const DEPLOY_TEMPLATE_SCENARIOS: readonly Scenario[] = [
  {
    title: 'deploy templates: version gates, create and its checks',
    steps: [
      { path: '/v1/deploy_templates', version: '1.54' },
      { ...template('CUSTOM_X', [step('bios', 'x')]), version: '1.54' },
      { path: '/v1/deploy_templates', version: '1.55' },
      template('CUSTOM_HT_ON', [step('bios', 'apply_configuration', 150, { settings: [] })], {
        uuid: T1,
        extra: { a: 1 },
        description: 'a description no field keeps',
      }),
      { path: `/v1/deploy_templates/${T1}`, version: V },
      template('HW_CPU_X86_VMX', [step('raid', 'create_configuration', '20')], { uuid: T2 }),
      { path: '/v1/deploy_templates/HW_CPU_X86_VMX', version: V },
      template('custom_lower', [step('bios', 'x')]),
      template('CUSTOM_NO_STEPS', []),
      post('/v1/deploy_templates', { name: 'CUSTOM_NO_STEPS' }),
      post('/v1/deploy_templates', { steps: [step('bios', 'x')] }),
      template('CUSTOM_BAD_IFACE', [step('boot', 'x')]),
      template('CUSTOM_BAD_PRIO', [step('bios', 'x', -1)]),
      template('CUSTOM_BAD_PRIO', [step('bios', 'x', 'ten')]),
      template('CUSTOM_BAD_STEP', [step('bios', '')]),
      template('CUSTOM_NO_ARGS', [{ interface: 'bios', step: 'x', priority: 1 }]),
      template('CUSTOM_ARGS', [step('bios', 'x', 1, 'args')]),
      template('CUSTOM_EXTRA_KEY', [{ ...step('bios', 'x'), extra: 1 }]),
      template('CUSTOM_DUP', [step('bios', 'x', 1), step('bios', 'x', 2), step('raid', 'y')]),
      template('CUSTOM_UUID', [step('bios', 'x')], { uuid: 'nope' }),
      template('CUSTOM_BOGUS', [step('bios', 'x')], { bogus: 1 }),
      template('CUSTOM_DESC', [step('bios', 'x')], { description: 'd'.repeat(256) }),
      template('CUSTOM_HT_ON', [step('bios', 'x')]),
      template('CUSTOM_OTHER', [step('bios', 'x')], { uuid: T1 }),
      { ...post('/v1/deploy_templates', null), realBug: "'NoneType' object is not subscriptable" },
      post(`/v1/deploy_templates/${T1}`, {}),
      { method: 'PUT', path: '/v1/deploy_templates', version: V, body: {} },
      { method: 'PATCH', path: '/v1/deploy_templates', version: V, body: [] },
      { method: 'DELETE', path: '/v1/deploy_templates', version: V },
    ],
  },
  {
    title: 'deploy templates: lists, fields and pages, show',
    steps: [
      { path: '/v1/deploy_templates', version: V },
      { path: '/v1/deploy_templates?detail=true', version: V },
      { path: '/v1/deploy_templates?detail=true', version: '1.55' },
      { path: '/v1/deploy_templates?fields=name,steps,extra', version: V },
      { path: '/v1/deploy_templates?fields=bogus', version: V },
      { path: '/v1/deploy_templates?fields=uuid,shard', version: '1.81' },
      { path: '/v1/deploy_templates?fields=uuid&detail=true', version: V },
      { path: '/v1/deploy_templates?detail=maybe', version: V },
      { path: '/v1/deploy_templates?limit=1', version: V },
      { path: `/v1/deploy_templates?limit=1&marker=${T1}&detail=false`, version: V },
      { path: '/v1/deploy_templates?marker=CUSTOM_HT_ON', version: V },
      { path: '/v1/deploy_templates?marker=a%20b', version: V },
      { path: '/v1/deploy_templates?sort_key=name&sort_dir=desc', version: V },
      { path: '/v1/deploy_templates?sort_key=steps', version: V },
      { path: '/v1/deploy_templates?sort_key=bogus', version: V },
      { path: '/v1/deploy_templates?sort_key=shard', version: '1.81' },
      { path: '/v1/deploy_templates?limit=-1', version: V },
      { path: '/v1/deploy_templates?bogus=1', version: V },
      { path: '/v1/deploy_templates/CUSTOM_HT_ON?fields=name,steps', version: V },
      { path: '/v1/deploy_templates/CUSTOM_HT_ON?fields=description', version: V },
      { path: '/v1/deploy_templates/CUSTOM_NOPE', version: V },
      { path: '/v1/deploy_templates/a%20b', version: V },
      { path: '/v1/deploy_templates/CUSTOM_HT_ON.json', version: V },
      { path: '/v1/deploy_templates/CUSTOM_HT_ON', version: '1.54' },
    ],
  },
  {
    title: 'deploy templates: PATCH and delete; secrets in step arguments',
    steps: [
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [{ op: 'add', path: '/extra/b', value: 2 }]),
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [
        { op: 'replace', path: '/steps', value: [step('bios', 'factory_reset', '5')] },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [
        { op: 'add', path: '/steps/-', value: step('raid', 'apply_configuration', 6) },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [
        { op: 'replace', path: '/steps/0/interface', value: 'boot' },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [
        { op: 'add', path: '/steps/-', value: step('bios', 'factory_reset', 7) },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [{ op: 'replace', path: '/steps', value: [] }]),
      patch('/v1/deploy_templates/CUSTOM_HT_ON', [
        { op: 'replace', path: '/name', value: 'CUSTOM_HT_RENAMED' },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [
        { op: 'replace', path: '/name', value: 'HW_CPU_X86_VMX' },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [
        { op: 'replace', path: '/name', value: 'lower' },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [
        { op: 'add', path: '/description', value: 'd' },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [{ op: 'remove', path: '/description' }]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [
        { op: 'replace', path: '/uuid', value: T2 },
      ]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [{ op: 'remove', path: '/extra' }]),
      patch('/v1/deploy_templates/CUSTOM_NOPE', [{ op: 'remove', path: '/extra' }]),
      patch('/v1/deploy_templates/CUSTOM_HT_RENAMED', [], '1.54'),
      template('CUSTOM_SECRET', [
        step('bios', 'apply_configuration', 0, { password: 'p4ss', settings: [] }),
      ]),
      { path: '/v1/deploy_templates/CUSTOM_SECRET', version: V },
      { path: '/v1/deploy_templates?fields=steps', version: V },
      { method: 'DELETE', path: '/v1/deploy_templates/CUSTOM_SECRET', version: V },
      { method: 'DELETE', path: '/v1/deploy_templates/CUSTOM_SECRET', version: V },
      { method: 'DELETE', path: '/v1/deploy_templates/a%20b', version: V },
      { method: 'DELETE', path: `/v1/deploy_templates/${T2}`, version: '1.54' },
      { path: '/v1/deploy_templates?detail=true', version: V },
    ],
  },
  {
    title: "deploy templates in a deployment: the node's instance traits name them",
    steps: [
      post('/v1/nodes', { uuid: D1, name: 'dt-1', driver: 'fake-hardware' }),
      provision(D1, 'manage'),
      provision(D1, 'provide'),
      {
        method: 'PUT',
        path: `/v1/nodes/${D1}/traits`,
        version: V,
        body: { traits: ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C', 'CUSTOM_D'] },
      },
      // A template of steps fake hardware does not have: skipped, the deploy goes on.
      template('CUSTOM_A', [step('bios', 'apply_configuration', 150, { settings: [] })]),
      instanceTraits(D1, ['CUSTOM_A']),
      validate(D1),
      provision(D1, 'active'),
      nodeView(D1),
      provision(D1, 'deleted'),
      nodeView(D1),
      // The core deploy step may only be disabled: then nothing is left to deploy.
      template('CUSTOM_B', [step('deploy', 'deploy', 0)]),
      instanceTraits(D1, ['CUSTOM_B']),
      validate(D1),
      provision(D1, 'active'),
      nodeView(D1),
      provision(D1, 'deleted'),
      template('CUSTOM_C', [step('deploy', 'deploy', 5)]),
      instanceTraits(D1, ['CUSTOM_C', 'CUSTOM_A']),
      validate(D1),
      provision(D1, 'active'),
      nodeView(D1),
      template('CUSTOM_D', [step('deploy', 'deploy', 0, { force: true })]),
      instanceTraits(D1, ['CUSTOM_D', 'CUSTOM_B']),
      validate(D1),
      provision(D1, 'active'),
      instanceTraits(D1, ['CUSTOM_B', 'CUSTOM_Z', 'CUSTOM_A']),
      validate(D1),
      provision(D1, 'active'),
      instanceTraits(D1, 'CUSTOM_A'),
      validate(D1),
      provision(D1, 'active'),
      instanceTraits(D1, [1]),
      provision(D1, 'active'),
      instanceTraits(D1, []),
      provision(D1, 'active'),
      nodeView(D1),
    ],
  },
  {
    title: 'deploy templates after an allocation: its traits are the instance traits',
    steps: [
      post('/v1/nodes', {
        uuid: D2,
        name: 'dt-2',
        driver: 'fake-hardware',
        resource_class: 'rc-dt',
      }),
      provision(D2, 'manage'),
      provision(D2, 'provide'),
      {
        method: 'PUT',
        path: `/v1/nodes/${D2}/states/power`,
        version: V,
        body: { target: 'power on' },
        settle: D2,
      },
      { method: 'PUT', path: `/v1/nodes/${D2}/traits/CUSTOM_A`, version: V },
      {
        ...post('/v1/allocations', { resource_class: 'rc-dt', traits: ['CUSTOM_A'], name: 'dt-a' }),
        settleAllocation: 'dt-a',
      },
      nodeView(D2),
      validate(D2),
      provision(D2, 'active'),
      nodeView(D2),
      { path: '/v1/allocations/dt-a', version: V },
      provision(D2, 'deleted'),
      nodeView(D2),
      { path: '/v1/allocations/dt-a', version: V },
    ],
  },
];
