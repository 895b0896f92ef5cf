/**
 * The `ipmi` hardware type side by side with the real Ironic 21.4.4: each service drives its
 * own simulated BMC (`ipmi_sim`, support/ipmi-sim.ts) and the real `baremetal` client runs the
 * same session against both: enroll, validate, power on/off/reboot, boot device set/show,
 * manage, provide, a ramdisk deploy with pxe boot and its undeploy, a BMC with a wrong password, power changed behind the service's back, and a BMC that
 * stops answering. Every command must print the same (the BMC's port is the one difference by
 * design), and each pair of BMCs must end in the same state having received the same requests.
 *
 * Both services run with `[ipmi] min_command_interval = 1` and `command_retry_timeout = 5`
 * (the real defaults, 5 and 60, only make the session slow), a power sync every 2 s.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ListeningApi } from '../../../src/baremetal/api/server.ts';
import { IPMI_DEFAULTS } from '../../../src/baremetal/drivers/ipmitool/ipmi-settings.ts';
import { PXE_DEFAULTS } from '../../../src/baremetal/drivers/pxe/pxe-settings.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { IPMI_PXE_ENABLED, IPMI_PXE_ENABLED_OPTIONS } from '../drivers/support/ipmi-pxe-enabled.ts';
import { type IpmiSim, requireIpmiSim, startIpmiSim } from '../drivers/support/ipmi-sim.ts';
import { type BatonApi, listenOnLoopback, startBatonApi } from './support/baton-api.ts';
import { CliSide, type Command, cmd, UUID } from './support/cli-side.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing() ?? requireIpmiSim();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic and ipmi_sim must run)`);

const SYNC_INTERVAL = 2;
/** The BMCs each side has, by name: `good` answers, `wrong` is given a wrong password, `gone` freezes. */
const BMC_NAMES = ['good', 'wrong', 'gone'] as const;
type BmcName = (typeof BMC_NAMES)[number];
type Bmcs = Record<BmcName, IpmiSim>;

const create = (name: string, bmc: BmcName, password = 'password') =>
  cmd(
    `node create --driver ipmi --name ${name} --driver-info ipmi_address=127.0.0.1` +
      ` --driver-info ipmi_port={${bmc}} --driver-info ipmi_username=admin` +
      ` --driver-info ipmi_password=${password} --driver-info ipmi_cipher_suite=3` +
      ' -f yaml -c driver -c driver_info -c power_interface -c management_interface' +
      ' -c console_interface -c vendor_interface -c power_state -c provision_state',
  );
const show = (node: string) =>
  cmd(
    `node show ${node} -f yaml -c power_state -c target_power_state -c provision_state` +
      ' -c last_error -c maintenance -c maintenance_reason -c fault',
  );
const settles = (line: string, node: string): Command => ({ ...cmd(line), settles: node });

/** A step: a client command on both sides, or something done to each side's BMCs. */
type Step =
  | { readonly command: Command }
  | { readonly title: string; readonly act: (bmcs: Bmcs, side: CliSide) => Promise<void> };

/** Polls `node show` until the field shows `want` (the periodic sync acts on its own time). */
async function waitForField(side: CliSide, node: string, field: string, want: string) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const shown = await side.run(cmd(`node show ${node} -f value -c ${field}`));
    if (shown.stdout.trim() === want) return;
    if (Date.now() > deadline) throw new Error(`${node} ${field}: ${shown.stdout} (want ${want})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const SESSION: readonly Step[] = [
  { command: create('node1', 'good') },
  { command: cmd('node validate node1 -f yaml') },
  { command: settles('node power on node1', 'node1') },
  { command: show('node1') },
  { command: settles('node power off node1', 'node1') },
  { command: settles('node reboot node1', 'node1') },
  { command: show('node1') },
  { command: cmd('node boot device set node1 pxe') },
  { command: cmd('node boot device show node1 -f yaml') },
  { command: cmd('node boot device set node1 disk --persistent') },
  { command: cmd('node boot device show node1 -f yaml') },
  { command: settles('node power off node1', 'node1') },
  { command: cmd('node manage node1 --wait 120') },
  { command: show('node1') },
  {
    title: 'the chassis is powered on behind the service, and the sync powers it off again',
    act: async (bmcs, side) => {
      bmcs.good.setPower(true);
      // force_power_state_during_sync (the default): the node's recorded state wins.
      const deadline = Date.now() + 60_000;
      const before = bmcs.good.requests().length;
      while (bmcs.good.poweredOn() || !bmcs.good.requests().slice(before).includes('power 0')) {
        if (Date.now() > deadline) throw new Error('the sync did not power the chassis off');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // The correction is a power action: done when the node has no target power state.
      await waitForField(side, 'node1', 'target_power_state', 'None');
    },
  },
  { command: show('node1') },
  // A ramdisk deploy with pxe boot: a port, kernel and ramdisk within file_url_allowed_paths.
  { command: cmd('node show node1 -f value -c uuid', { name: 'node1', pattern: UUID }) },
  { command: cmd('port create 52:54:00:12:34:01 --node {node1} -f value -c address') },
  {
    command: cmd(
      'node set node1 --instance-info kernel=file://{images}/vmlinuz' +
        ' --instance-info ramdisk=file://{images}/initrd',
    ),
  },
  { command: cmd('node validate node1 -f yaml') },
  { command: cmd('node provide node1 --wait 120') },
  { command: cmd('node deploy node1 --wait 120') },
  { command: show('node1') },
  { command: cmd('node undeploy node1 --wait 120') },
  { command: show('node1') },
  { command: create('node2', 'wrong', 'WRONG') },
  { command: cmd('node validate node2 -f value -c Interface -c Result') },
  { command: settles('node power on node2', 'node2') },
  { command: show('node2') },
  { command: cmd('node manage node2 --wait 120') },
  { command: show('node2') },
  { command: create('node3', 'gone') },
  { command: cmd('node manage node3 --wait 120') },
  {
    title: 'the BMC stops answering: after the sync retries the node is in maintenance',
    act: async (bmcs, side) => {
      bmcs.gone.freeze();
      await waitForField(side, 'node3', 'fault', 'power failure');
    },
  },
  { command: show('node3') },
];

interface Side {
  readonly cli: CliSide;
  readonly bmcs: Bmcs;
}

async function startBmcs(): Promise<Bmcs> {
  const started = await Promise.all(BMC_NAMES.map(() => startIpmiSim()));
  return Object.fromEntries(BMC_NAMES.map((name, i) => [name, started[i]])) as Bmcs;
}

const portsOf = (bmcs: Bmcs) =>
  Object.fromEntries(BMC_NAMES.map((name) => [name, String(bmcs[name].port)]));

/** A side's TFTP root, image cache and the folder its `file://` kernel and ramdisk are in. */
function scratch(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `ipmi-session-${name}-`));
  const paths = {
    dir,
    tftp: join(dir, 'tftp'),
    master: join(dir, 'master'),
    images: join(dir, 'images'),
  };
  for (const path of [paths.tftp, paths.master, paths.images]) mkdirSync(path);
  writeFileSync(join(paths.images, 'vmlinuz'), 'a kernel');
  writeFileSync(join(paths.images, 'initrd'), 'a ramdisk');
  return paths;
}

describe('the ipmi hardware type against the real Ironic 21.4.4, each with its own ipmi_sim', {
  skip: missing,
}, () => {
  let real: RealIronic;
  let baton: BatonApi;
  let listening: ListeningApi;
  let sides: { real: Side; baton: Side };

  const realDir = scratch('real');
  const batonDir = scratch('baton');

  before(async () => {
    const [realBmcs, batonBmcs] = await Promise.all([startBmcs(), startBmcs()]);
    [real, baton] = await Promise.all([
      startRealIronic({
        config: {
          DEFAULT: {
            ...IPMI_PXE_ENABLED_OPTIONS,
          },
          ipmi: { min_command_interval: '1', command_retry_timeout: '5' },
          conductor: {
            sync_power_state_interval: String(SYNC_INTERVAL),
            power_state_change_timeout: '10',
            automated_clean: 'false',
            file_url_allowed_paths: realDir.images,
          },
          pxe: { tftp_root: realDir.tftp, tftp_master_path: realDir.master },
        },
      }),
      startBatonApi({
        conductor: {
          ...IPMI_PXE_ENABLED,
          powerStateChangeTimeout: 10,
          syncPowerStateInterval: SYNC_INTERVAL,
          automatedClean: false,
          ipmi: { ...IPMI_DEFAULTS, commandRetryTimeout: 5, minCommandInterval: 1 },
          pxe: { ...PXE_DEFAULTS, tftpRoot: batonDir.tftp, fileUrlAllowedPaths: [batonDir.images] },
        },
      }),
    ]);
    listening = await listenOnLoopback(baton, undefined);
    sides = {
      real: {
        cli: new CliSide(real.url, { ...portsOf(realBmcs), images: realDir.images }),
        bmcs: realBmcs,
      },
      baton: {
        cli: new CliSide(listening.url, { ...portsOf(batonBmcs), images: batonDir.images }),
        bmcs: batonBmcs,
      },
    };
  });

  after(async () => {
    sides?.real.cli.close();
    sides?.baton.cli.close();
    await listening?.drain();
    await Promise.all([real?.stop(), baton?.close()]);
    for (const side of [sides?.real, sides?.baton]) {
      for (const bmc of Object.values(side?.bmcs ?? {})) await bmc.stop();
    }
    for (const dir of [realDir, batonDir]) rmSync(dir.dir, { recursive: true, force: true });
  });

  it('prints the same for every command, and the BMCs end alike', async () => {
    for (const [index, step] of SESSION.entries()) {
      if ('act' in step) {
        await Promise.all([
          step.act(sides.real.bmcs, sides.real.cli),
          step.act(sides.baton.bmcs, sides.baton.cli),
        ]);
        continue;
      }
      const [theirs, ours] = await Promise.all([
        sides.real.cli.run(step.command),
        sides.baton.cli.run(step.command),
      ]);
      const shown = (side: CliSide, result: typeof theirs) => ({
        code: result.code,
        stdout: side.normalize(result.stdout),
        stderr: side.normalize(result.stderr),
      });
      assert.deepEqual(
        shown(sides.baton.cli, ours),
        shown(sides.real.cli, theirs),
        `step ${index + 1}: baremetal ${step.command.args.join(' ')}`,
      );
    }
    // The session reached the chassis: what is compared below is not two empty records.
    const reached = sides.baton.bmcs.good.requests();
    for (const request of ['power 1', 'power 0', 'boot pxe']) {
      assert.ok(reached.includes(request), `${request} in ${reached.join(', ')}`);
    }
    for (const name of BMC_NAMES) {
      const state = (bmc: IpmiSim) => ({
        on: bmc.poweredOn(),
        boot: bmc.bootDevice(),
        requests: bmc.requests(),
      });
      assert.deepEqual(
        state(sides.baton.bmcs[name]),
        state(sides.real.bmcs[name]),
        `the ${name} BMC`,
      );
    }
  });
});
