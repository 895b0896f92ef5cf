/**
 * docs/baremetal.md, "Driving a real server with ipmi", followed as written with the real
 * `baremetal` client against Baton, its BMC an ipmi_sim: the section's configuration is read
 * as a config file (its paths moved to a scratch directory, and `[ipmi] min_command_interval`
 * set to 0 so that the test does not wait five seconds between commands), then every command
 * block runs in order, in bash, with only the BMC's address, port, password and cipher suite
 * and the image directory changed. After the deploy the node is active and powered on, its
 * kernel under the TFTP root and its MAC linked; after the undeploy it is available and
 * powered off.
 *
 * Needs python3-ironicclient and ipmi_sim: without them it is skipped with the reason, and
 * fails under CI=true.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ListeningApi } from '../../../src/baremetal/api/server.ts';
import { baremetalConfigFromIni, baremetalConfigOf } from '../../../src/baremetal/config-file.ts';
import { BAREMETAL_CLI, pythonEnv } from '../../support/real-ironic.ts';
import {
  IPMI_PASSWORD,
  type IpmiSim,
  requireIpmiSim,
  startIpmiSim,
} from '../drivers/support/ipmi-sim.ts';
import { type BatonApi, listenOnLoopback, startBatonApi } from './support/baton-api.ts';

const run = promisify(execFile);
const inCi = process.env.CI === 'true';
const missing = existsSync(BAREMETAL_CLI)
  ? requireIpmiSim()
  : `${BAREMETAL_CLI} is missing (install python3-ironicclient)`;
if (missing && inCi) throw new Error(`${missing} (CI=true: the walk must run)`);

const DOC = readFileSync(
  fileURLToPath(new URL('../../../docs/baremetal.md', import.meta.url)),
  'utf8',
);

/** The section, and its blocks: the configuration (ini) and the commands, in order. */
function section() {
  const start = DOC.indexOf('### Driving a real server with ipmi');
  const end = DOC.indexOf('\n#', start + 10);
  const text = DOC.slice(start, end === -1 ? undefined : end);
  const blocks = [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((m) => ({
    lang: m[2] as string,
    body: (m[3] as string).replace(new RegExp(`^${m[1]}`, 'gm'), ''),
  }));
  return {
    ini: blocks.find((b) => b.lang === 'ini')?.body ?? '',
    commands: blocks.filter((b) => b.lang === '').map((b) => b.body),
  };
}

describe('docs: driving a real server with ipmi', { skip: missing }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-ipmi-docs-'));
  const images = join(dir, 'images');
  const tftpRoot = join(dir, 'tftpboot');
  mkdirSync(images);
  writeFileSync(join(images, 'vmlinuz'), 'a kernel');
  writeFileSync(join(images, 'initrd.img'), 'a ramdisk');
  const { ini, commands } = section();
  let bmc: IpmiSim;
  let baton: BatonApi;
  let listening: ListeningApi;

  const moved = (text: string) =>
    text.replaceAll('/var/lib/ironic/images', images).replaceAll('/tftpboot', tftpRoot);

  before(async () => {
    bmc = await startIpmiSim();
    const file = baremetalConfigFromIni(moved(ini));
    const config = baremetalConfigOf('sqlite::memory:', file.values);
    baton = await startBatonApi({
      conductor: {
        ...config.conductor,
        host: '127.0.0.1',
        ipmi: { ...config.conductor.ipmi, minCommandInterval: 0 },
      },
    });
    listening = await listenOnLoopback(baton, '1.82');
  });

  after(async () => {
    await listening?.drain();
    await baton?.close();
    await bmc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a block in bash, `baremetal` being the real client pointed at Baton. */
  const runBlock = async (block: string) => {
    const script = [
      'set -euo pipefail',
      `baremetal() { ${BAREMETAL_CLI} --os-auth-type none --os-endpoint ${listening.url} "$@"; }`,
      moved(block)
        .replace(
          'ipmi_address=10.0.0.5',
          `ipmi_address=127.0.0.1 --driver-info ipmi_port=${bmc.port} --driver-info ipmi_cipher_suite=3`,
        )
        .replace('ipmi_password=secret', `ipmi_password=${IPMI_PASSWORD}`),
    ].join('\n');
    const { stdout } = await run('bash', ['-c', script], { env: pythonEnv(), timeout: 120_000 });
    return stdout;
  };

  it('has a configuration the conductor takes, and four command blocks', () => {
    assert.match(ini, /enabled_boot_interfaces = pxe/);
    assert.equal(commands.length, 4);
  });

  it('enrolls, powers, provides, deploys and undeploys the node', async () => {
    const [enroll, power, deploy, undeploy] = commands as [string, string, string, string];
    const validated = await runBlock(enroll);
    assert.match(validated, /\| power\s+\| True /);
    assert.match(validated, /\| boot\s+\| False\s+\| Cannot validate image information/);
    await runBlock(power);
    const shown = await runBlock(deploy);
    assert.match(shown, /^power on\nactive$/m);
    assert.equal(bmc.poweredOn(), true);
    assert.equal(bmc.bootDevice(), 'pxe');
    const uuid = (await runBlock('baremetal node show node-1 -f value -c uuid')).trim();
    assert.equal(readFileSync(join(tftpRoot, uuid, 'kernel'), 'utf8'), 'a kernel');
    assert.ok(existsSync(join(tftpRoot, 'pxelinux.cfg', '01-52-54-00-12-34-56')));
    await runBlock(undeploy);
    const after = await runBlock(
      'baremetal node show node-1 -f value -c provision_state -c power_state',
    );
    assert.match(after, /^power off\navailable$/m);
    assert.equal(existsSync(join(tftpRoot, uuid)), false);
  });
});
