/**
 * Allocations (API 1.52 to 1.60) unpinned on both sides (real-ironic-allocations.test.ts):
 * the version gates, the body's checks, the allocation process (resource class, traits,
 * candidate nodes, owner; failures as `error` with the real last_error), the node's
 * allocation_uuid, instance_uuid and instance_info.traits, lists, PATCH, backfill (1.58), and
 * the deletions: by the API, with the node, on undeploy and when the instance is removed.
 * Every allocation has one node that fits, so the conductor's random choice cannot differ.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';
import { patch, post } from './requests.ts';

const V = '1.82';
const N1 = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0a1';
const N2 = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0a2';
const N3 = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0a3';
const N4 = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0a4';
const N5 = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0a5';
const N6 = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0a6';
const NB = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0b1';
const NC = 'a11ca7e0-03f2-4d2e-ae87-c02d7f33c0b2';
/** Allocations with a UUID of their own, for markers. */
const A1 = 'a110ca7e-0000-4d2e-ae87-c02d7f33c001';
const A2 = 'a110ca7e-0000-4d2e-ae87-c02d7f33c002';
/** The instance UUID a backfill takes as its own. */
const INSTANCE = 'b1b1b1b1-03f2-4d2e-ae87-c02d7f33c0b1';

const provision = (uuid: string, target: string): Exchange => ({
  method: 'PUT',
  path: `/v1/nodes/${uuid}/states/provision`,
  version: V,
  body: { target },
  settle: uuid,
});
const powerOn = (uuid: string): Exchange => ({
  method: 'PUT',
  path: `/v1/nodes/${uuid}/states/power`,
  version: V,
  body: { target: 'power on' },
  settle: uuid,
});
/** A node made available (managed, provided, powered on), of a resource class. */
const availableNode = (uuid: string, name: string, fields: Record<string, unknown>) => [
  post('/v1/nodes', { uuid, name, driver: 'fake-hardware', ...fields }),
  provision(uuid, 'manage'),
  provision(uuid, 'provide'),
  powerOn(uuid),
];
const allocate = (body: Record<string, unknown>, name: string): Exchange => ({
  ...post('/v1/allocations', { name, ...body }),
  settleAllocation: name,
});
const nodeView = (uuid: string): Exchange => ({
  path: `/v1/nodes/${uuid}?fields=uuid,allocation_uuid,instance_uuid,instance_info,provision_state`,
  version: V,
});

export const ALLOCATION_SCENARIOS: readonly Scenario[] = [
  {
    title: 'allocations: version gates and /v1 links',
    steps: [
      { path: '/v1/allocations', version: '1.51' },
      post('/v1/allocations', { resource_class: 'x' }, '1.51'),
      { method: 'DELETE', path: '/v1/allocations/x', version: '1.51' },
      { path: '/v1/allocations', version: '1.52' },
      { path: '/v1', version: '1.51' },
      { path: '/v1', version: '1.52' },
      { path: '/v1', version: '1.55' },
      post('/v1/nodes', { uuid: N6, name: 'al-gate', driver: 'fake-hardware' }),
      { path: `/v1/nodes/${N6}/allocation`, version: '1.51' },
      { path: `/v1/nodes/${N6}/allocation`, version: '1.52' },
      { path: `/v1/nodes/${N6}?fields=uuid,allocation_uuid`, version: '1.51' },
      { path: `/v1/nodes/${N6}?fields=uuid,allocation_uuid`, version: '1.52' },
      { method: 'PUT', path: '/v1/allocations', version: V, body: {} },
      { method: 'PATCH', path: '/v1/allocations', version: V, body: [] },
      { method: 'DELETE', path: '/v1/allocations', version: V },
      { method: 'POST', path: `/v1/nodes/${N6}/allocation`, version: V, body: {} },
      { method: 'DELETE', path: `/v1/nodes/${N6}/allocation`, version: V },
      { method: 'DELETE', path: `/v1/nodes/${N6}`, version: V },
    ],
  },
  {
    title: "allocations: the body's checks",
    steps: [
      post('/v1/allocations', {}),
      post('/v1/allocations', { resource_class: 'x'.repeat(81) }),
      post('/v1/allocations', { resource_class: 'rc', bogus: 1 }),
      post('/v1/allocations', { resource_class: 'rc', traits: ['lowercase'] }),
      post('/v1/allocations', { resource_class: 'rc', traits: 'CUSTOM_A' }),
      post('/v1/allocations', { resource_class: 'rc', name: 'a b' }),
      post('/v1/allocations', { resource_class: 'rc', uuid: 'not-a-uuid' }),
      post('/v1/allocations', { resource_class: 'rc', extra: 'x' }),
      post('/v1/allocations', { resource_class: 'rc', candidate_nodes: ['no-such-node'] }),
      post('/v1/allocations', { resource_class: 'rc', candidate_nodes: ['a b'] }),
      post('/v1/allocations', { resource_class: 'rc', candidate_nodes: 'x' }),
      post('/v1/allocations', { resource_class: 'rc', node: 'no-such-node' }, '1.57'),
      post('/v1/allocations', { node: 'no-such-node' }, '1.58'),
      post('/v1/allocations', { resource_class: 'rc', owner: 'p1' }, '1.59'),
      post('/v1/allocations', { resource_class: 'rc', owner: null }, '1.59'),
      { ...post('/v1/allocations', null), realBug: "'NoneType' object has no attribute 'get'" },
      post('/v1/allocations', []),
      {
        method: 'POST',
        path: '/v1/allocations',
        version: V,
        rawBody: '{bad json',
        realBug: "the JSON decoder's error let through",
      },
      post('/v1/allocations/x', { resource_class: 'rc' }),
      { path: '/v1/allocations', version: V },
    ],
  },
  {
    title: 'allocations: the allocation process and its failures',
    steps: [
      ...availableNode(N1, 'al-1', { resource_class: 'rc-a' }),
      { method: 'PUT', path: `/v1/nodes/${N1}/traits/CUSTOM_GOLD`, version: V },
      ...availableNode(N2, 'al-2', { resource_class: 'rc-a' }),
      ...availableNode(N3, 'al-3', { resource_class: 'rc-b' }),
      // A node in maintenance, or without a power state, is no candidate.
      post('/v1/nodes', {
        uuid: N4,
        name: 'al-4',
        driver: 'fake-hardware',
        resource_class: 'rc-c',
      }),
      provision(N4, 'manage'),
      provision(N4, 'provide'),
      allocate({ resource_class: 'rc-c' }, 'alloc-nopower'),
      { path: '/v1/allocations/alloc-nopower', version: V },
      allocate(
        { resource_class: 'rc-a', traits: ['CUSTOM_GOLD'], extra: { k: 'v' }, uuid: A1 },
        'alloc-1',
      ),
      { path: '/v1/allocations/alloc-1', version: V },
      { path: '/v1/allocations/alloc-1', version: '1.59' },
      nodeView(N1),
      { path: `/v1/nodes/${N1}/allocation`, version: V },
      { path: `/v1/nodes/${N1}/allocation?fields=uuid,state,node_uuid`, version: V },
      { path: `/v1/nodes/${N1}/allocation?fields=owner`, version: '1.59' },
      allocate({ resource_class: 'rc-none' }, 'alloc-norc'),
      { path: '/v1/allocations/alloc-norc', version: V },
      allocate({ resource_class: 'rc-a', traits: ['CUSTOM_MISSING'] }, 'alloc-notraits'),
      { path: '/v1/allocations/alloc-notraits', version: V },
      allocate({ resource_class: 'rc-a', candidate_nodes: [N3] }, 'alloc-nocand'),
      { path: '/v1/allocations/alloc-nocand', version: V },
      allocate({ resource_class: 'rc-a', candidate_nodes: ['al-2', N3], uuid: A2 }, 'alloc-2'),
      { path: '/v1/allocations/alloc-2', version: V },
      nodeView(N2),
      post('/v1/allocations', { resource_class: 'rc-b', name: 'alloc-2' }),
      post('/v1/allocations', { resource_class: 'rc-b', uuid: N1 }),
      // The node of an allocation is no longer a candidate.
      allocate({ resource_class: 'rc-a' }, 'alloc-none-left'),
      { path: '/v1/allocations/alloc-none-left', version: V },
      { path: `/v1/nodes/${N3}/allocation`, version: V },
      { path: '/v1/nodes/no-such-node/allocation', version: V },
    ],
  },
  {
    title: 'allocations: lists, filters, fields and pages',
    steps: [
      { path: '/v1/allocations', version: V },
      { path: '/v1/allocations', version: '1.59' },
      { path: '/v1/allocations?state=error', version: V },
      { path: '/v1/allocations?state=active&fields=uuid,name,node_uuid', version: V },
      { path: '/v1/allocations?resource_class=rc-a&fields=name', version: V },
      { path: `/v1/allocations?node=${N1}`, version: V },
      { path: '/v1/allocations?node=al-2&fields=name', version: V },
      { path: '/v1/allocations?node=no-such-node', version: V },
      { path: '/v1/allocations?node=a%20b', version: V },
      { path: '/v1/allocations?owner=p1', version: '1.59' },
      { path: '/v1/allocations?owner=p1', version: V },
      { path: '/v1/allocations?fields=owner', version: '1.59' },
      { path: '/v1/allocations?fields=uuid,bogus', version: V },
      { path: '/v1/allocations?limit=2&fields=name', version: V },
      { path: `/v1/allocations?limit=2&marker=${A1}&fields=name`, version: V },
      { path: `/v1/allocations?limit=1&marker=${A2}&sort_key=name`, version: V },
      { path: '/v1/allocations?sort_key=name&sort_dir=desc&fields=name', version: V },
      { path: '/v1/allocations?sort_key=traits', version: V },
      { path: '/v1/allocations?sort_key=bogus', version: V },
      { path: '/v1/allocations?sort_dir=up', version: V },
      { path: '/v1/allocations?limit=0', version: V },
      { path: '/v1/allocations?limit=x', version: V },
      { path: '/v1/allocations?marker=x', version: V },
      { path: `/v1/allocations?marker=${N6}`, version: V },
      { path: '/v1/allocations?bogus=1', version: V },
      { path: '/v1/allocations/a%20b', version: V },
      { path: '/v1/allocations/no-such', version: V },
      { path: '/v1/allocations/detail', version: V },
      { path: '/v1/allocations/alloc-1?fields=uuid,node_uuid,traits', version: V },
      { path: '/v1/allocations/alloc-1?fields=links', version: V },
      { path: '/v1/allocations/alloc-1?fields=bogus', version: V },
      { path: '/v1/allocations/no-such?fields=owner', version: '1.59' },
      { path: '/v1/allocations/alloc-1?fields=owner', version: '1.59' },
      { path: '/v1/allocations/alloc-1.json', version: V },
    ],
  },
  {
    title: 'allocations: PATCH (1.57) of name and extra',
    steps: [
      patch('/v1/allocations/alloc-1', [{ op: 'add', path: '/extra/b', value: 2 }], '1.56'),
      patch('/v1/allocations/alloc-1', [{ op: 'add', path: '/extra/b', value: 2 }]),
      patch('/v1/allocations/alloc-1', [{ op: 'replace', path: '/name', value: 'alloc-one' }]),
      patch('/v1/allocations/alloc-one', [{ op: 'replace', path: '/name', value: 'alloc-1' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'replace', path: '/name', value: 'a b' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'replace', path: '/name', value: 'alloc-2' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'replace', path: '/resource_class', value: 'x' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'add', path: '/owner', value: 'p' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'replace', path: '/extra', value: 'x' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'remove', path: '/extra/nope' }]),
      patch('/v1/allocations/alloc-1', [{ op: 'remove', path: '/extra' }]),
      patch('/v1/allocations/alloc-nocand', [{ op: 'remove', path: '/name' }]),
      patch('/v1/allocations/no-such', [{ op: 'remove', path: '/extra' }]),
      patch('/v1/allocations/a%20b', [{ op: 'remove', path: '/extra' }]),
      patch('/v1/allocations/alloc-1', { op: 'remove' }),
      { path: '/v1/allocations?fields=name,extra', version: V },
    ],
  },
  {
    title: 'allocations: owners (1.60) and a node allocated to an owned allocation',
    steps: [
      ...availableNode(N5, 'al-5', { resource_class: 'rc-o' }),
      patch(`/v1/nodes/${N5}`, [{ op: 'add', path: '/owner', value: 'proj-1' }]),
      allocate({ resource_class: 'rc-o', owner: 'proj-2' }, 'alloc-other-owner'),
      { path: '/v1/allocations/alloc-other-owner', version: V },
      allocate({ resource_class: 'rc-o', owner: 'proj-1' }, 'alloc-owned'),
      { path: '/v1/allocations/alloc-owned', version: V },
      { path: '/v1/allocations?owner=proj-1&fields=name,owner', version: V },
      patch(`/v1/nodes/${N5}`, [{ op: 'replace', path: '/owner', value: 'proj-3' }]),
      patch(`/v1/nodes/${N5}`, [{ op: 'add', path: '/extra/x', value: 1 }]),
    ],
  },
  {
    title: 'allocations: backfill (1.58)',
    steps: [
      post('/v1/nodes', {
        uuid: NB,
        name: 'al-active',
        driver: 'fake-hardware',
        resource_class: 'rc-d',
      }),
      provision(NB, 'manage'),
      provision(NB, 'provide'),
      provision(NB, 'active'),
      post('/v1/allocations', { node: 'al-active', name: 'bf-1' }, '1.57'),
      post('/v1/allocations', { node: 'al-active', name: 'bf-1' }),
      { path: '/v1/allocations/bf-1', version: V },
      nodeView(NB),
      post('/v1/allocations', { node: 'al-active', name: 'bf-again' }),
      { path: '/v1/allocations/bf-again', version: V },
      // A node that has an instance gives its UUID: taken already.
      post('/v1/allocations', { node: 'al-3', name: 'bf-available', resource_class: 'rc-x' }),
      { path: '/v1/allocations/bf-available', version: V },
      // A node that is not active, or does not match, cannot be backfilled.
      post('/v1/nodes', { uuid: NC, name: 'al-enroll', driver: 'fake-hardware' }),
      {
        ...post('/v1/allocations', {
          node: 'al-enroll',
          name: 'bf-enroll',
          resource_class: 'rc-e',
        }),
        realBug: 'AllocationFailed has no status: a 500',
      },
      { path: '/v1/allocations/bf-enroll', version: V },
      nodeView(NC),
      { method: 'PUT', path: `/v1/nodes/${NC}/traits/CUSTOM_NC`, version: V },
      provision(NC, 'manage'),
      provision(NC, 'provide'),
      provision(NC, 'active'),
      {
        ...post('/v1/allocations', {
          node: NC,
          name: 'bf-mismatch',
          resource_class: 'rc-e',
          traits: ['CUSTOM_GOLD'],
          candidate_nodes: [N1],
        }),
        realBug: 'AllocationFailed has no status: a 500',
      },
      { path: '/v1/allocations/bf-mismatch', version: V },
      post('/v1/allocations', { node: NC, name: 'bf-ok', traits: ['CUSTOM_NC'] }),
      nodeView(NC),
      { path: `/v1/nodes/${NC}/allocation?fields=name,state,traits,node_uuid`, version: V },
      { method: 'DELETE', path: '/v1/allocations/bf-1', version: V },
      { method: 'DELETE', path: '/v1/allocations/bf-available', version: V },
      // Undeploying deletes the node's allocation.
      provision(NB, 'deleted'),
      { path: '/v1/allocations/bf-1', version: V },
      nodeView(NB),
      // A backfill without a UUID takes the node's instance UUID.
      provision(NB, 'active'),
      patch(`/v1/nodes/${NB}`, [{ op: 'add', path: '/instance_uuid', value: INSTANCE }]),
      post('/v1/allocations', { node: 'al-active', resource_class: 'rc-d', traits: [] }),
      { path: `/v1/allocations/${INSTANCE}`, version: V },
    ],
  },
  {
    title: 'allocations: deletion rules',
    steps: [
      { method: 'DELETE', path: '/v1/allocations/alloc-norc', version: V },
      { method: 'DELETE', path: '/v1/allocations/alloc-norc', version: V },
      { method: 'DELETE', path: '/v1/allocations/a%20b', version: V },
      { method: 'DELETE', path: `/v1/allocations/${INSTANCE}`, version: V },
      // An available node's allocation goes, with its instance_uuid.
      { method: 'DELETE', path: '/v1/allocations/alloc-1', version: V },
      nodeView(N1),
      { path: `/v1/nodes/${N1}/allocation`, version: V },
      { method: 'DELETE', path: `/v1/nodes/${N1}/allocation`, version: V },
      // Removing the instance of a node deletes its allocation.
      patch(`/v1/nodes/${N2}`, [{ op: 'remove', path: '/instance_uuid' }]),
      { path: '/v1/allocations/alloc-2', version: V },
      nodeView(N2),
      allocate({ resource_class: 'rc-a', candidate_nodes: [N2] }, 'alloc-3'),
      { method: 'DELETE', path: `/v1/nodes/${N2}/allocation`, version: V },
      { path: '/v1/allocations/alloc-3', version: V },
      // A node's allocations go with it (deleted in maintenance).
      { method: 'PUT', path: `/v1/nodes/${N5}/maintenance`, version: V, body: {} },
      { method: 'DELETE', path: `/v1/nodes/${N5}`, version: V },
      { path: '/v1/allocations/alloc-owned', version: V },
      { path: '/v1/allocations?fields=name,state', version: V },
    ],
  },
];
