/**
 * The power state sync end to end against a simulated BMC (ipmi_sim, driven by ipmitool as the
 * `ipmi` hardware type drives it), on SQLite: power changed behind the service's back is set
 * back (force_power_state_during_sync), and the chassis receives the request; a BMC that stops
 * answering puts the node in maintenance with `fault: power failure` once
 * power_state_sync_max_retries reads in a row have failed, with the real text; when it answers
 * again, the power failure recovery takes the node out of maintenance. Under CI=true this runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  POWER_FAILURE_FAULT,
  powerFailureRecovery,
  powerSyncFailureCount,
  syncPowerStates,
} from '../../../src/baremetal/conductor/periodic-tasks.ts';
import { IPMI_DEFAULTS } from '../../../src/baremetal/drivers/ipmitool/ipmi-settings.ts';
import { createScratchDatabase } from '../../db/support/backends.ts';
import { IPMI_PXE_ENABLED } from '../drivers/support/ipmi-pxe-enabled.ts';
import { type IpmiSim, requireIpmiSim, startIpmiSim } from '../drivers/support/ipmi-sim.ts';
import {
  localTransports,
  newNode,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';

const skip = requireIpmiSim();

describe('the power state sync against ipmi_sim [sqlite]', { skip }, () => {
  let bmc: IpmiSim;
  let running: TestConductor;
  let drop: () => Promise<void>;
  const lines: string[] = [];

  before(async () => {
    bmc = await startIpmiSim();
    const scratch = await createScratchDatabase('sqlite');
    drop = scratch.drop;
    const { transport } = localTransports();
    running = await startTestConductor({
      url: scratch.url,
      transport: transport(),
      settings: {
        ...IPMI_PXE_ENABLED,
        powerStateSyncMaxRetries: 1,
        powerStateChangeTimeout: 10,
        ipmi: { ...IPMI_DEFAULTS, commandRetryTimeout: 2, minCommandInterval: 0 },
      },
      log: {
        info: (line) => lines.push(line),
        warn: (line) => lines.push(line),
        error: (line) => lines.push(line),
      },
    });
  });
  after(async () => {
    await running?.stop();
    await bmc?.stop();
    await drop?.();
  });

  it('sets the chassis back, fails to maintenance when the BMC stops answering, recovers', async () => {
    const context = running.conductor.context;
    const node = await running.store.nodes.create(
      newNode({
        driver: 'ipmi',
        power_interface: 'ipmitool',
        management_interface: 'ipmitool',
        driver_info: bmc.driverInfo(),
        provision_state: 'manageable',
        power_state: 'power off',
      }),
    );
    const uuid = String(node.get('uuid'));

    // Powered on behind the service's back: the sync powers it off again.
    bmc.setPower(true);
    await syncPowerStates(context);
    assert.equal(bmc.poweredOn(), false);
    assert.deepEqual(bmc.requests(), ['power 0']);
    let seen = await running.store.nodes.get(uuid);
    assert.equal(seen.get('power_state'), 'power off');
    assert.equal(seen.get('maintenance'), false);
    assert.ok(
      lines.includes(
        `During sync_power_state, node ${uuid} state 'power on' does not match expected state. Changing hardware state to 'power off'.`,
      ),
    );
    await syncPowerStates(context);
    assert.equal(powerSyncFailureCount(context, uuid), 0);

    // The BMC stops answering: one failed read is a warning, the next one past the retries.
    bmc.freeze();
    try {
      await syncPowerStates(context);
      seen = await running.store.nodes.get(uuid);
      assert.equal(seen.get('maintenance'), false);
      assert.ok(
        lines.some((line) =>
          line.startsWith(
            `During sync_power_state, could not get power state for node ${uuid}, attempt 1 of 1. Error: IPMI call failed: power status.`,
          ),
        ),
      );
      await syncPowerStates(context);
      seen = await running.store.nodes.get(uuid);
      assert.equal(seen.get('maintenance'), true);
      assert.equal(seen.get('fault'), POWER_FAILURE_FAULT);
      assert.equal(seen.get('power_state'), null);
      assert.equal(
        seen.get('maintenance_reason'),
        `During sync_power_state, max retries exceeded for node ${uuid}, node state None does not match expected state 'power off'. Updating DB state to 'None' Switching node to maintenance mode. Error: IPMI call failed: power status.`,
      );
      // Still silent: the recovery leaves it in maintenance.
      await powerFailureRecovery(context);
      assert.equal((await running.store.nodes.get(uuid)).get('maintenance'), true);
    } finally {
      bmc.thaw();
    }

    // It answers again: out of maintenance, with the state it reports.
    await powerFailureRecovery(context);
    seen = await running.store.nodes.get(uuid);
    assert.equal(seen.get('maintenance'), false);
    assert.equal(seen.get('maintenance_reason'), null);
    assert.equal(seen.get('fault'), null);
    assert.equal(seen.get('power_state'), 'power off');
    assert.equal(seen.get('reservation'), null);
    assert.ok(
      lines.includes(
        `Node ${uuid} is recovered from power failure with actual power state 'power off'.`,
      ),
    );
    assert.deepEqual(bmc.requests(), ['power 0'], 'reads only, since the correction');
  });
});
