/**
 * The ipmitool power and management interfaces against a real BMC protocol: an `ipmi_sim`
 * (support/ipmi-sim.ts) whose chassis records every request. Power status/on/off/reboot/soft
 * off change the simulated chassis; boot devices are sent as Ironic 21.4.4 sends them (the
 * boot timeout disabled, then the raw UEFI Set System Boot Options, or `chassis bootdev` for a
 * legacy BIOS node) and read back from `chassis bootparam get 5`; the password never appears
 * in a spawned ipmitool's argv and its file is gone afterwards; two commands to one BMC are
 * `min_command_interval` apart; `ipmi_force_boot_device` sets the remembered device again at
 * power on; a BMC that does not answer
 * ends in the real IPMIFailure within command_retry_timeout, with no hang.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IPMIFailureError } from '../../../../src/baremetal/common/errors.ts';
import { FAKE_NO_DELAYS } from '../../../../src/baremetal/drivers/fake/fake-delays.ts';
import type { DriverOptions } from '../../../../src/baremetal/drivers/implementation.ts';
import { IPMI_DEFAULTS } from '../../../../src/baremetal/drivers/ipmitool/ipmi-settings.ts';
import { ipmitoolManagement } from '../../../../src/baremetal/drivers/ipmitool/ipmitool-management.ts';
import { ipmitoolPower } from '../../../../src/baremetal/drivers/ipmitool/ipmitool-power.ts';
import { runnerFor } from '../../../../src/baremetal/drivers/ipmitool/shared-runner.ts';
import type { NodeDriver } from '../../../../src/baremetal/drivers/node-driver.ts';
import { Node } from '../../../../src/baremetal/objects/index.ts';
import { IPMI_PASSWORD, type IpmiSim, requireIpmiSim, startIpmiSim } from '../support/ipmi-sim.ts';

const skip = requireIpmiSim();
const lines: string[] = [];
const passwordDir = mkdtempSync(join(tmpdir(), 'baton-ipmi-pw-'));
const IPMI_SETTINGS = {
  ...IPMI_DEFAULTS,
  commandRetryTimeout: 3,
  minCommandInterval: 0,
  powerStateChangeTimeout: 10,
  tempDir: passwordDir,
};
const OPTIONS: DriverOptions = {
  fake: FAKE_NO_DELAYS,
  ipmi: IPMI_SETTINGS,
  log: {
    debug: (line) => lines.push(line),
    info: (line) => lines.push(line),
    warn: (line) => lines.push(line),
    error: (line) => lines.push(line),
  },
};
const power = ipmitoolPower.create(OPTIONS);
const management = ipmitoolManagement.create(OPTIONS);

const taskFor = (driverInfo: Record<string, unknown>, fields: Record<string, unknown> = {}) => ({
  node: Node.create({
    uuid: randomUUID(),
    driver: 'ipmi',
    driver_info: driverInfo,
    driver_internal_info: {},
    instance_info: {},
    properties: {},
    ...fields,
  } as never),
});

describe('ipmitool interfaces against ipmi_sim', { skip }, () => {
  let bmc: IpmiSim;
  before(async () => {
    bmc = await startIpmiSim();
  });
  after(async () => {
    await bmc?.stop();
    rmSync(passwordDir, { recursive: true, force: true });
  });

  it('reads and changes the power of the simulated chassis', async () => {
    const task = taskFor(bmc.driverInfo());
    await power.validate(task);
    assert.equal(await power.getPowerState(task), 'power off');
    await power.setPowerState(task, 'power on');
    assert.equal(bmc.poweredOn(), true);
    assert.equal(await power.getPowerState(task), 'power on');
    await power.setPowerState(task, 'power off');
    assert.equal(bmc.poweredOn(), false);
    // A reboot of a node that is off is only `power on`, of one that is on `off` then `on`.
    const before = bmc.requests().length;
    await power.reboot(task);
    assert.deepEqual(bmc.requests().slice(before), ['power 1']);
    await power.reboot(task);
    assert.deepEqual(bmc.requests().slice(before + 1), ['power 0', 'power 1']);
    assert.equal(await power.getPowerState(task), 'power on');
    // Soft power off is `power soft` (ACPI shutdown), which the chassis sees as `shutdown`.
    await power.setPowerState(task, 'soft power off');
    assert.equal(bmc.requests().at(-1), 'shutdown 1');
    assert.equal(bmc.poweredOn(), false);
    await power.setPowerState(task, 'soft rebooting');
    assert.equal(bmc.poweredOn(), true);
    await assert.rejects(power.setPowerState(task, 'dancing'), {
      message: 'set_power_state called with invalid power state dancing.',
    });
    assert.deepEqual(power.supportedPowerStates(task), [
      'power on',
      'power off',
      'rebooting',
      'soft rebooting',
      'soft power off',
    ]);
  });

  it('never puts the password on a command line, and removes its file', async () => {
    const seen: string[][] = [];
    const runner = runnerFor(OPTIONS);
    runner.observer = (child) => {
      // The process's real argv, as ps shows it.
      const pid = child.pid as number;
      try {
        seen.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
      } catch {
        // exited already: nothing to read
      }
    };
    try {
      const task = taskFor(bmc.driverInfo());
      await power.getPowerState(task);
      await management.getBootDevice(task);
    } finally {
      runner.observer = undefined;
    }
    assert.ok(seen.length >= 1, 'no ipmitool process was seen');
    for (const argv of seen) {
      assert.ok(
        argv.some((arg) => arg.endsWith('ipmitool')),
        argv.join(' '),
      );
      assert.ok(!argv.includes(IPMI_PASSWORD), argv.join(' '));
      assert.ok(!argv.includes('-P'), argv.join(' '));
      assert.ok(argv.includes('-f'), argv.join(' '));
    }
    assert.deepEqual(readdirSync(passwordDir), []);
    assert.ok(lines.length > 0);
    for (const line of lines) assert.ok(!line.includes(IPMI_PASSWORD), line);
    assert.ok(
      lines.some((line) =>
        /^Execute: ipmitool -I lanplus -H 127\.0\.0\.1 .* -f \S+ power status$/.test(line),
      ),
    );
  });

  it('sets and reads the boot device as the real one does', async () => {
    const task = taskFor(bmc.driverInfo());
    assert.deepEqual(management.supportedBootDevices(task), [
      'pxe',
      'disk',
      'cdrom',
      'bios',
      'safe',
    ]);
    const sent: string[][] = [];
    const runner = runnerFor(OPTIONS);
    runner.observer = (_child, argv) => sent.push([...argv]);
    try {
      await management.setBootDevice(task, 'pxe', false);
      assert.deepEqual(await management.getBootDevice(task), {
        boot_device: 'pxe',
        persistent: false,
      });
      assert.equal(bmc.bootDevice(), 'pxe');
      await management.setBootDevice(task, 'cdrom', true);
      assert.equal(bmc.bootDevice(), 'cdrom');
      // The simulator keeps no persistence: it reports "only next boot", as with the real one.
      assert.deepEqual(await management.getBootDevice(task), {
        boot_device: 'cdrom',
        persistent: false,
      });
      const legacy = taskFor(bmc.driverInfo({ ipmi_disable_boot_timeout: false }), {
        properties: { capabilities: 'boot_mode:bios' },
      });
      await management.setBootDevice(legacy, 'disk', true);
      assert.deepEqual(await management.getBootDevice(task), {
        boot_device: 'disk',
        persistent: false,
      });
    } finally {
      runner.observer = undefined;
    }
    const commands = sent
      .map((argv) => argv.slice(argv.indexOf('-f') + 2).join(' '))
      .filter((command) => command !== 'chassis bootparam get 5');
    assert.deepEqual(commands, [
      'raw 0x00 0x08 0x03 0x08',
      'raw 0x00 0x08 0x05 0xa0 0x04 0x00 0x00 0x00',
      'raw 0x00 0x08 0x03 0x08',
      'raw 0x00 0x08 0x05 0xe0 0x14 0x00 0x00 0x00',
      'chassis bootdev disk options=persistent',
    ]);
    await assert.rejects(management.setBootDevice(task, 'floppy', false), {
      message: 'Invalid boot device floppy specified.',
    });
  });

  it('spaces two commands to one BMC by min_command_interval, and passes it as -N', async () => {
    const spaced: DriverOptions = { ...OPTIONS, ipmi: { ...IPMI_SETTINGS, minCommandInterval: 1 } };
    const spacedPower = ipmitoolPower.create(spaced);
    const starts: number[] = [];
    const argvs: string[][] = [];
    runnerFor(spaced).observer = (_child, argv) => {
      starts.push(Date.now());
      argvs.push([...argv]);
    };
    const task = taskFor(bmc.driverInfo());
    const states = await Promise.all([
      spacedPower.getPowerState(task),
      spacedPower.getPowerState(task),
    ]);
    assert.deepEqual(states, [states[0], states[0]]);
    assert.equal(starts.length, 2);
    const gap = Math.abs((starts[1] as number) - (starts[0] as number));
    assert.ok(gap >= 950, `the second command started ${gap} ms after the first`);
    for (const argv of argvs)
      assert.deepEqual(argv.slice(argv.indexOf('-R'), argv.indexOf('-R') + 4), [
        '-R',
        '1',
        '-N',
        '1',
      ]);
  });

  it('with ipmi_force_boot_device, remembers a persistent device and sets it at each power on', async () => {
    let saves = 0;
    const task = {
      ...taskFor(bmc.driverInfo({ ipmi_force_boot_device: true })),
      // Only management is reached (the remembered device is set again through it).
      driver: { management } as unknown as NodeDriver,
      save: async () => {
        saves += 1;
      },
    };
    await management.setBootDevice(task, 'cdrom', true);
    assert.equal(saves, 1);
    assert.equal(task.node.get('driver_internal_info')?.persistent_boot_device, 'cdrom');
    // Sent as a one-time device (the BMC is taken not to remember it)…
    assert.equal(bmc.bootDevice(), 'cdrom');
    // …and reported from driver_internal_info, without asking the BMC.
    assert.deepEqual(await management.getBootDevice(task), {
      boot_device: 'cdrom',
      persistent: true,
    });
    await power.setPowerState(task, 'power off');
    const before = bmc.requests().length;
    await power.setPowerState(task, 'power on');
    assert.deepEqual(bmc.requests().slice(before), ['boot cdrom', 'power 1']);
    // A one-time device afterwards: the next power on only forgets it was one.
    await management.setBootDevice(task, 'pxe', false);
    assert.equal(task.node.get('driver_internal_info')?.is_next_boot_persistent, false);
    await power.setPowerState(task, 'power off');
    const later = bmc.requests().length;
    await power.setPowerState(task, 'power on');
    assert.deepEqual(bmc.requests().slice(later), ['power 1']);
    assert.equal(task.node.get('driver_internal_info')?.is_next_boot_persistent, undefined);
  });

  it('injects an NMI with `power diag`, which this simulator refuses: the real IPMIFailure', async () => {
    const task = taskFor(bmc.driverInfo());
    const started = Date.now();
    await assert.rejects(
      management.injectNmi(task),
      (error: Error) =>
        error instanceof IPMIFailureError && error.message === 'IPMI call failed: power diag.',
    );
    // Retried within command_retry_timeout (3 s here), then given up.
    assert.ok(Date.now() - started < 8000);
  });

  it('a BMC that does not answer, or a wrong password: IPMIFailure within the retry timeout', async () => {
    for (const info of [
      bmc.driverInfo({ ipmi_password: 'WRONG' }),
      bmc.driverInfo({ ipmi_port: bmc.port === 65535 ? 65534 : bmc.port + 1 }),
    ]) {
      const started = Date.now();
      await assert.rejects(power.getPowerState(taskFor(info)), {
        name: 'IPMIFailureError',
        message: 'IPMI call failed: power status.',
      });
      const took = Date.now() - started;
      assert.ok(took < 10_000, `took ${took} ms`);
    }
    // A BMC that stops answering mid-way (SIGSTOP): the run is killed, not waited for.
    bmc.freeze();
    try {
      const started = Date.now();
      await assert.rejects(power.setPowerState(taskFor(bmc.driverInfo()), 'power on'), {
        message: 'IPMI call failed: power on.',
      });
      assert.ok(Date.now() - started < 10_000);
    } finally {
      bmc.thaw();
    }
    assert.ok(lines.some((line) => line.startsWith('IPMI Error encountered, retrying "ipmitool ')));
    assert.ok(lines.some((line) => line.startsWith('IPMI Error while attempting "ipmitool ')));
  });
});
