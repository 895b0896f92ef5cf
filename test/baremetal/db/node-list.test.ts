/** The node list: Ironic's filters, the conductor filters, pages, sort keys, fields. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import {
  InvalidParameterError,
  type NodeFilters,
  type NodeListOptions,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import type { NodeObject } from '../../../src/baremetal/objects/index.ts';
import {
  createChassis,
  createNode,
  forEachStoreBackend,
  unique,
} from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal node list', (ctx) => {
  /** Names of the nodes a list returns, in its order. */
  const names = async (options: NodeListOptions) =>
    (await ctx.store().nodes.list(options)).map((node) => node.get('name'));

  describe('filters', () => {
    const group = unique('filters').toLowerCase();
    const instance = randomUUID();
    let chassisUuid = '';
    let nodes: NodeObject[] = [];
    const inGroup = (filters: NodeFilters) =>
      names({ filters: { conductor_group: group, ...filters } });

    before(async () => {
      const store = ctx.store();
      const chassis = await createChassis(store);
      chassisUuid = chassis.get('uuid') as string;
      const old = new Date(ctx.clock.now.getTime() - 3600_000).toISOString();
      nodes = [
        await createNode(store, {
          name: `${group}-1`,
          conductor_group: group,
          driver: 'ipmi',
          resource_class: 'small',
          provision_state: 'active',
          maintenance: true,
          fault: 'power failure',
          owner: 'p1',
          instance_uuid: instance,
          reservation: 'Host-A',
          description: 'rack one gpu',
          provision_updated_at: old as never,
          power_state: 'power on',
          retired: true,
          console_enabled: true,
          inspection_started_at: old as never,
        }),
        await createNode(store, {
          name: `${group}-2`,
          conductor_group: group,
          driver: 'fake-hardware',
          resource_class: 'large',
          provision_state: 'available',
          owner: 'p2',
          lessee: 'p1',
          description: 'Rack two',
          reservation: 'host-b',
          provision_updated_at: ctx.clock.now.toISOString() as never,
        }),
        await createNode(store, {
          name: `${group}-3`,
          conductor_group: group,
          driver: 'fake-hardware',
          resource_class: 'large',
          chassis_id: chassis.get('id'),
        }),
      ];
    });

    test('equality on a column', async () => {
      const [n1, n2, n3] = [1, 2, 3].map((i) => `${group}-${i}`);
      assert.deepEqual(await inGroup({}), [n1, n2, n3]);
      assert.deepEqual(await inGroup({ driver: 'fake-hardware' }), [n2, n3]);
      assert.deepEqual(await inGroup({ resource_class: 'small' }), [n1]);
      assert.deepEqual(await inGroup({ provision_state: 'available' }), [n2]);
      assert.deepEqual(await inGroup({ maintenance: true }), [n1]);
      assert.deepEqual(await inGroup({ maintenance: false }), [n2, n3]);
      assert.deepEqual(await inGroup({ fault: 'power failure' }), [n1]);
      assert.deepEqual(await inGroup({ owner: 'p1' }), [n1]);
      assert.deepEqual(await inGroup({ lessee: 'p1' }), [n2]);
      assert.deepEqual(await inGroup({ retired: true }), [n1]);
      assert.deepEqual(await inGroup({ console_enabled: true }), [n1]);
      assert.deepEqual(await inGroup({ instance_uuid: instance }), [n1]);
      assert.deepEqual(await inGroup({ uuid: nodes[2]?.get('uuid') as string }), [n3]);
      assert.deepEqual(await inGroup({ id: nodes[1]?.get('id') }), [n2]);
      assert.deepEqual(await names({ filters: { conductor_group: `${group}-none` } }), []);
    });

    test('membership, set or not, chassis, project, description, times', async () => {
      const [n1, n2, n3] = [1, 2, 3].map((i) => `${group}-${i}`);
      assert.deepEqual(await inGroup({ provision_state_in: ['active', 'enroll'] }), [n1, n3]);
      assert.deepEqual(await inGroup({ uuid_in: [nodes[0]?.get('uuid') as string] }), [n1]);
      assert.deepEqual(await inGroup({ uuid_in: [] }), []);
      assert.deepEqual(await inGroup({ associated: true }), [n1]);
      assert.deepEqual(await inGroup({ associated: false }), [n2, n3]);
      assert.deepEqual(await inGroup({ reserved: true }), [n1, n2]);
      assert.deepEqual(await inGroup({ reserved: false }), [n3]);
      assert.deepEqual(await inGroup({ with_power_state: true }), [n1]);
      assert.deepEqual(await inGroup({ reserved_by_any_of: ['host-b', 'host-c'] }), [n2]);
      assert.deepEqual(await inGroup({ chassis_uuid: chassisUuid }), [n3]);
      assert.deepEqual(await inGroup({ project: 'p1' }), [n1, n2]);
      assert.deepEqual(await inGroup({ project: 'p2' }), [n2]);
      assert.deepEqual(await inGroup({ description_contains: 'gpu' }), [n1]);
      assert.deepEqual(await inGroup({ description_contains: 'o' }), [n1, n2]);
      assert.deepEqual(await inGroup({ description_contains: null }), [n1, n2, n3]);
      assert.deepEqual(await inGroup({ provisioned_before: 60 }), [n1]);
      assert.deepEqual(await inGroup({ provisioned_before: 7200 }), []);
      assert.deepEqual(await inGroup({ inspection_started_before: 60 }), [n1]);
      await assert.rejects(
        ctx.store().nodes.list({ filters: { chassis_uuid: randomUUID() } }),
        (e: unknown) => e instanceof NotFoundError && e.kind === 'chassis',
      );
    });

    test('the conductor filters: node ids, or (conductor group, driver) pairs', async () => {
      const [n1, n2, n3] = [1, 2, 3].map((i) => `${group}-${i}`);
      const ids = [nodes[0]?.get('id'), nodes[2]?.get('id')] as number[];
      assert.deepEqual(await inGroup({ id_in: ids }), [n1, n3]);
      assert.deepEqual(
        await names({
          filters: {
            conductor_group_driver_in: [{ conductor_group: group, driver: 'fake-hardware' }],
          },
        }),
        [n2, n3],
      );
      assert.deepEqual(
        await names({
          filters: {
            conductor_group_driver_in: [
              { conductor_group: group, driver: 'ipmi' },
              { conductor_group: 'elsewhere', driver: 'fake-hardware' },
            ],
          },
        }),
        [n1],
      );
      assert.deepEqual(await names({ filters: { conductor_group_driver_in: [] } }), []);
    });
  });

  describe('pages', () => {
    const group = unique('pages').toLowerCase();
    before(async () => {
      // Created out of name order; two without a resource class.
      for (const [suffix, resourceClass] of [
        ['c', 'gold'],
        ['a', null],
        ['e', 'bronze'],
        ['b', 'gold'],
        ['d', null],
      ] as const) {
        await createNode(ctx.store(), {
          name: `${group}-${suffix}`,
          conductor_group: group,
          resource_class: resourceClass,
        });
      }
    });
    const all = (options: NodeListOptions = {}) =>
      ctx.store().nodes.list({ ...options, filters: { conductor_group: group } });

    /** Every page of `size` in turn, each starting after the last node of the previous one. */
    async function pageThrough(size: number, options: NodeListOptions): Promise<string[]> {
      const seen: string[] = [];
      let marker: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await all({ ...options, limit: size, ...(marker ? { marker } : {}) });
        seen.push(...page.map((n) => n.get('name') as string));
        if (page.length < size) return seen;
        marker = page.at(-1)?.get('uuid') as string;
      }
      throw new Error('pages never ended');
    }
    const suffixes = (list: readonly string[]) => list.map((name) => name.slice(-1)).join('');

    test('default order is by id; a limit and a marker page through every node once', async () => {
      assert.equal(suffixes((await all()).map((n) => n.get('name') as string)), 'caebd');
      assert.equal(suffixes(await pageThrough(2, {})), 'caebd');
    });

    test('by a sort key and direction, ties broken by id', async () => {
      assert.equal(suffixes(await pageThrough(2, { sortKey: 'name' })), 'abcde');
      assert.equal(suffixes(await pageThrough(2, { sortKey: 'name', sortDir: 'desc' })), 'edcba');
    });

    test('NULL sort values come first ascending and last descending, and a page can end on one', async () => {
      assert.equal(suffixes(await pageThrough(1, { sortKey: 'resource_class' })), 'adecb');
      assert.equal(
        suffixes(await pageThrough(1, { sortKey: 'resource_class', sortDir: 'desc' })),
        'bceda',
      );
      assert.equal(
        suffixes(await pageThrough(3, { sortKey: 'resource_class', sortDir: 'desc' })),
        'bceda',
      );
    });

    test('a bad sort key, direction or limit is InvalidParameter; an unknown marker is NodeNotFound', async () => {
      await assert.rejects(
        all({ sortKey: 'no_such_column' }),
        (e: unknown) =>
          e instanceof InvalidParameterError &&
          e.parameter === 'sort_key' &&
          e.message === 'The sort_key value "no_such_column" is an invalid field for sorting',
      );
      await assert.rejects(
        all({ sortDir: 'up' as never }),
        (e: unknown) => e instanceof InvalidParameterError && e.parameter === 'sort_dir',
      );
      await assert.rejects(all({ limit: 0 }), InvalidParameterError);
      const marker = randomUUID();
      await assert.rejects(
        all({ marker }),
        (e: unknown) => e instanceof NotFoundError && e.kind === 'node' && e.identifier === marker,
      );
    });

    test('fields: only the asked fields and those always read; traits only when asked', async () => {
      const [node] = await all({ fields: ['name'], limit: 1 });
      assert.ok(node);
      assert.equal(node.isSet('name'), true);
      assert.equal(node.isSet('driver'), true);
      assert.equal(node.isSet('properties'), false);
      assert.equal(node.isSet('traits'), false);
      const [withTraits] = await all({ fields: ['traits'], limit: 1 });
      assert.equal(withTraits?.isSet('traits'), true);
      await assert.rejects(all({ fields: ['bogus'] }), InvalidParameterError);
    });
  });
});
