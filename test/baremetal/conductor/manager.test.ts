/**
 * The conductor's RPC methods beyond the recorded walks, on SQLite, PostgreSQL and MariaDB:
 * node locking (a second exclusive operation gets the real NodeLocked 409, retried
 * node_locked_retry_attempts times first), the worker pool limit (NoFreeConductorWorker 503
 * and the node put back as it was), the checks of create/update/destroy, ports and port
 * groups, and what crosses the wire.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  ConflictError,
  DriverNotFoundError,
  InstanceRescueFailureError,
  InvalidParameterError,
  InvalidStateError,
  NodeAssociatedError,
  NodeLockedError,
  NoFreeConductorWorkerError,
  NotEmptyError,
  UnsupportedDriverExtensionError,
} from '../../../src/baremetal/common/errors.ts';
import { Port, Portgroup } from '../../../src/baremetal/objects/index.ts';
import type { ConductorApi } from '../../../src/baremetal/rpcapi/index.ts';
import {
  apiStore,
  conductorApi,
  forEachConductorBackend,
  localTransports,
  newNode,
  poolIdle,
  settled,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';

const SLOW = [0.4, 0.4] as const;

forEachConductorBackend('conductor manager', (backend) => {
  const { transport } = localTransports();
  let conductor: TestConductor;
  let api: ConductorApi;
  let store: ReturnType<typeof apiStore>;

  before(async () => {
    conductor = await startTestConductor({
      url: backend.url(),
      transport: transport(),
      settings: {
        workersPoolSize: 3,
        nodeLockedRetryAttempts: 3,
        nodeLockedRetryInterval: 0,
        automatedClean: false,
        fakeDelays: {
          ...(await import('../../../src/baremetal/conductor/conductor-settings.ts'))
            .FAKE_NO_DELAYS,
          deploy: SLOW,
        },
      },
    });
    backend.onCleanup(() => conductor.stop());
    store = apiStore(conductor.database);
    api = conductorApi(store, transport());
  });

  async function availableNode(fields: Parameters<typeof newNode>[0] = {}) {
    const node = await api.createNode(newNode(fields));
    const uuid = String(node.get('uuid'));
    await api.doProvisioningAction(node, 'manage');
    await settled(store, uuid);
    await api.doProvisioningAction(await store.nodes.get(uuid), 'provide');
    const node2 = await settled(store, uuid);
    await poolIdle(conductor);
    return node2;
  }

  it('gives a second exclusive operation the real NodeLocked while the first is in flight', async () => {
    const node = await availableNode();
    const uuid = String(node.get('uuid'));
    await api.doNodeDeploy(node);
    const during = await store.nodes.get(uuid);
    assert.equal(during.get('provision_state'), 'deploying');
    assert.equal(during.get('target_provision_state'), 'active');
    assert.equal(during.get('reservation'), conductor.host);
    await assert.rejects(api.changeNodePowerState(during, 'power on'), (error: unknown) => {
      assert.ok(error instanceof NodeLockedError);
      assert.equal(
        error.message,
        `Node ${uuid} is locked by host ${conductor.host}, please retry after the current operation is completed.`,
      );
      return true;
    });
    const done = await settled(store, uuid);
    assert.equal(done.get('provision_state'), 'active');
    assert.equal(done.get('reservation'), null, 'released when the work is done');
  });

  it('retries a locked node and succeeds once the holder lets go within the attempts', async () => {
    const node = await availableNode();
    const uuid = String(node.get('uuid'));
    const id = node.get('id');
    await store.reservations.reserve('someone-else', id);
    setTimeout(() => void store.reservations.release('someone-else', id), 150);
    const local = await startTestConductor({
      url: backend.url(),
      transport: transport(),
      host: `${conductor.host}-patient`,
      settings: { nodeLockedRetryAttempts: 5, nodeLockedRetryInterval: 0.1 },
    });
    try {
      const { changeNodePowerState } = await import(
        '../../../src/baremetal/conductor/manager-provision.ts'
      );
      await changeNodePowerState(local.conductor.context, uuid, 'power on');
      const after = await settled(store, uuid);
      assert.equal(after.get('power_state'), 'power on');
    } finally {
      await local.stop();
    }
  });

  it('refuses work beyond workers_pool_size with NoFreeConductorWorker and puts the node back', async () => {
    const nodes = [];
    for (let i = 0; i < 4; i++) nodes.push(await availableNode());
    for (const node of nodes.slice(0, 3)) await api.doNodeDeploy(node);
    const fourth = nodes[3] as (typeof nodes)[number];
    await assert.rejects(api.doNodeDeploy(fourth), (error: unknown) => {
      assert.ok(error instanceof NoFreeConductorWorkerError);
      assert.equal(
        error.message,
        'Requested action cannot be performed due to lack of free conductor workers.',
      );
      assert.equal(error.code, 503);
      return true;
    });
    const back = await store.nodes.get(String(fourth.get('uuid')));
    assert.equal(back.get('provision_state'), 'available');
    assert.equal(back.get('target_provision_state'), null);
    assert.equal(back.get('last_error'), 'No free conductor workers available');
    assert.equal(back.get('reservation'), null);
    for (const node of nodes.slice(0, 3)) {
      assert.equal(
        (await settled(store, String(node.get('uuid')))).get('provision_state'),
        'active',
      );
    }
    await api.doNodeDeploy(await store.nodes.get(String(fourth.get('uuid'))));
    const deployed = await settled(store, String(fourth.get('uuid')));
    assert.equal(deployed.get('provision_state'), 'active');
    assert.equal(deployed.get('last_error'), null, 'a new operation clears last_error');
  });

  it('creates nodes with default interfaces and refuses interfaces or drivers that are not enabled', async () => {
    const created = await api.createNode(newNode({ rescue_interface: 'no-rescue' }));
    assert.equal(created.get('rescue_interface'), 'no-rescue');
    assert.equal(created.get('network_interface'), 'noop');
    assert.equal(created.get('console_interface'), 'no-console');
    assert.equal(created.get('provision_state'), 'enroll');
    await assert.rejects(api.createNode(newNode({ bios_interface: 'bogus' })), (error: unknown) => {
      assert.ok(error instanceof InvalidParameterError);
      assert.equal(
        error.message,
        "Could not find the following interface in the 'ironic.hardware.interfaces.bios' entrypoint: bogus. Valid interfaces are ['fake', 'no-bios'].",
      );
      return true;
    });
    const { createNode } = await import('../../../src/baremetal/conductor/manager-nodes.ts');
    await assert.rejects(
      createNode(conductor.conductor.context, newNode({ driver: 'ipmi' })),
      (error: unknown) =>
        error instanceof DriverNotFoundError &&
        error.message === 'Could not find the following driver(s) or hardware type(s): ipmi.',
    );
  });

  it('updates nodes with the real checks', async () => {
    const node = await availableNode();
    const uuid = String(node.get('uuid'));
    node.set('instance_uuid', '0a1b2c3d-0000-4000-8000-000000000001');
    await api.updateNode(node);
    const again = await store.nodes.get(uuid);
    again.set('instance_uuid', '0a1b2c3d-0000-4000-8000-000000000002');
    await assert.rejects(
      api.updateNode(again),
      (error: unknown) =>
        error instanceof NodeAssociatedError &&
        error.message ===
          `Node ${uuid} is associated with instance 0a1b2c3d-0000-4000-8000-000000000001.` &&
        error.code === 409,
    );
    const reason = await store.nodes.get(uuid);
    reason.set('protected_reason', 'why');
    await assert.rejects(
      api.updateNode(reason),
      (error: unknown) =>
        error instanceof InvalidParameterError &&
        error.message === 'The protected_reason field can only be set when protected is True',
    );
    const retire = await store.nodes.get(uuid);
    retire.set('retired', true);
    await assert.rejects(
      api.updateNode(retire),
      (error: unknown) =>
        error instanceof InvalidStateError &&
        error.message ===
          `Node ${uuid} can not have 'retired' set in provision state 'available', the current state is 'available'`,
    );
    const maintenance = await store.nodes.get(uuid);
    maintenance.set('maintenance', true);
    maintenance.set('maintenance_reason', 'r');
    maintenance.set('fault', 'power failure');
    await api.updateNode(maintenance);
    const off = await store.nodes.get(uuid);
    off.set('maintenance', false);
    const cleared = await api.updateNode(off);
    assert.equal(cleared.get('maintenance_reason'), null);
    assert.equal(cleared.get('fault'), null);
  });

  it('resets the interfaces on a driver change when asked', async () => {
    const node = await api.createNode(newNode({ inspect_interface: 'no-inspect' }));
    node.set('driver', 'fake-hardware');
    node.markChanged(['driver']);
    const kept = await api.updateNode(node);
    assert.equal(kept.get('inspect_interface'), 'no-inspect');
    kept.markChanged(['driver']);
    const reset = await api.updateNode(kept, { resetInterfaces: true });
    assert.equal(reset.get('inspect_interface'), 'fake');
  });

  it('refuses to act on a node whose interface is no longer enabled, but updates and deletes it', async () => {
    const node = await api.createNode(newNode());
    const uuid = String(node.get('uuid'));
    // As a conductor restarted with fewer implementations enabled would find it.
    const stale = await store.nodes.get(uuid);
    stale.set('console_interface', 'fake');
    await store.nodes.save(stale);
    const refusal = {
      name: 'InterfaceNotFoundInEntrypointError',
      message:
        "Could not find the following interface in the 'ironic.hardware.interfaces.console' entrypoint: fake. Valid interfaces are ['no-console'].",
    };
    await assert.rejects(api.changeNodePowerState(stale, 'power on'), refusal);
    await assert.rejects(api.validateDriverInterfaces(stale), refusal);
    assert.equal((await store.nodes.get(uuid)).get('reservation'), null, 'the node is let go');
    const fixed = await store.nodes.get(uuid);
    fixed.set('description', 'still editable');
    assert.equal((await api.updateNode(fixed)).get('description'), 'still editable');
    await api.destroyNode(fixed);
    await assert.rejects(store.nodes.get(uuid), /could not be found/);
  });

  it('refuses to destroy an associated node unless in maintenance', async () => {
    const node = await api.createNode(
      newNode({ instance_uuid: '0a1b2c3d-0000-4000-8000-0000000000aa' }),
    );
    await assert.rejects(api.destroyNode(node), NodeAssociatedError);
    node.set('maintenance', true);
    await api.updateNode(node);
    await api.destroyNode(node);
    await assert.rejects(store.nodes.get(String(node.get('uuid'))), /could not be found/);
  });

  it('validates interfaces as the real fake-hardware: no-* fail, the others pass', async () => {
    const node = await api.createNode(newNode({ rescue_interface: 'no-rescue' }));
    const result = await api.validateDriverInterfaces(node);
    assert.deepEqual(result.rescue, {
      result: false,
      reason: 'Driver fake-hardware does not support rescue (disabled or not implemented).',
    });
    assert.deepEqual(result.power, { result: true });
    assert.equal(Object.keys(result).length, 11);
  });

  it('refuses a rescue the rescue interface cannot do, leaving no password behind', async () => {
    const node = await availableNode({ rescue_interface: 'no-rescue' });
    const uuid = String(node.get('uuid'));
    await api.doNodeDeploy(node);
    await settled(store, uuid);
    await assert.rejects(api.doNodeRescue(await store.nodes.get(uuid), 'pw'), (error: unknown) => {
      assert.ok(error instanceof InstanceRescueFailureError);
      assert.equal(
        error.message,
        `Failed to rescue instance None for node ${uuid}: Validation failed: Driver fake-hardware does not support rescue (disabled or not implemented).`,
      );
      return true;
    });
    const after = await store.nodes.get(uuid);
    assert.deepEqual(after.get('instance_info'), {});
    assert.equal(after.get('provision_state'), 'active');
  });

  it('refuses inspection where the inspect interface is no-inspect', async () => {
    const node = await api.createNode(newNode({ inspect_interface: 'no-inspect' }));
    await api.doProvisioningAction(node, 'manage');
    await settled(store, String(node.get('uuid')));
    await assert.rejects(
      api.inspectHardware(node),
      (error: unknown) =>
        error instanceof UnsupportedDriverExtensionError &&
        error.message ===
          'Driver fake-hardware does not support inspect (disabled or not implemented).' &&
        error.code === 400,
    );
  });

  it('creates, updates and destroys ports and port groups under the node reservation', async () => {
    const node = await availableNode();
    const nodeId = node.get('id');
    const group = await store.portgroups.create(
      Portgroup.create({ node_id: nodeId, address: '52:54:00:aa:bb:01', name: `pg-${Date.now()}` }),
    );
    const port = await api.createPort(
      node,
      Port.create({
        node_id: nodeId,
        address: '52:54:00:aa:bb:02',
        portgroup_id: group.get('id'),
        physical_network: 'physnet1',
      }),
    );
    assert.equal(port.get('address'), '52:54:00:aa:bb:02');
    await assert.rejects(
      api.createPort(
        node,
        Port.create({
          node_id: nodeId,
          address: '52:54:00:aa:bb:03',
          portgroup_id: group.get('id'),
          physical_network: 'physnet2',
        }),
      ),
      (error: unknown) =>
        error instanceof ConflictError &&
        error.message ===
          `Port with physical network physnet2 cannot become a member of port group ${group.get('uuid')} which has ports in physical network physnet1.`,
    );
    // available is not a state in which connectivity may change
    port.set('pxe_enabled', false);
    await assert.rejects(api.updatePort(node, port), (error: unknown) => {
      assert.ok(error instanceof InvalidStateError);
      assert.match(
        error.message,
        /can not have any connectivity attributes \(portgroup_id, pxe_enabled, local_link_connection, physical_network\) updated unless node .* is in a enroll, inspecting, inspect wait, manageable state or in maintenance mode. The current state is available\./,
      );
      return true;
    });
    const fresh = await store.ports.get(String(port.get('uuid')));
    fresh.set('extra', { a: 1 });
    assert.deepEqual((await api.updatePort(node, fresh)).get('extra'), { a: 1 });
    await assert.rejects(api.destroyPortgroup(node, group), NotEmptyError);
    const bound = await store.ports.get(String(port.get('uuid')));
    bound.set('internal_info', { tenant_vif_port_id: 'vif-9' });
    await store.ports.save(bound);
    await assert.rejects(
      api.destroyPort(node, await store.ports.get(String(port.get('uuid')))),
      (error: unknown) =>
        error instanceof InvalidStateError &&
        error.message ===
          `Cannot delete the port ${port.get('uuid')} as it is bound to VIF vif-9 for tenant use.`,
    );
    const unbound = await store.ports.get(String(port.get('uuid')));
    unbound.set('internal_info', {});
    await store.ports.save(unbound);
    await api.destroyPort(node, unbound);
    group.set('extra', { b: 2 });
    assert.deepEqual((await api.updatePortgroup(node, group)).get('extra'), { b: 2 });
    await api.destroyPortgroup(node, await store.portgroups.get(String(group.get('uuid'))));
    assert.deepEqual(await store.ports.list({ filters: { node_id: nodeId } }), []);
  });
});
