/**
 * A simulated BMC for tests: OpenIPMI's `ipmi_sim` (Debian package `openipmi`) on a free
 * loopback UDP port, speaking IPMI 2.0 (RMCP+) to `ipmitool` as a server's BMC does. Its
 * chassis is chassis-control.sh beside this file: power and boot device are files in the BMC's
 * directory, and every request that reached the chassis is a line of its `requests` file.
 *
 * The configuration follows what was found to work with openipmi 2.0.33 (a LAN section with
 * `chassis_control`, user 2 `admin`, cipher suite 3: the simulator has no "Get Channel Cipher
 * Suites" and each call without `-C 3` waits ~10 s). `ipmiSimMissing()` says why one cannot
 * run here; under CI=true a test must fail then, not skip (`requireIpmiSim`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHASSIS_CONTROL = fileURLToPath(new URL('chassis-control.sh', import.meta.url));

export const IPMI_USER = 'admin';
export const IPMI_PASSWORD = 'password';

/** Why ipmi_sim or ipmitool cannot run here, or undefined when both can. */
export function ipmiSimMissing(): string | undefined {
  for (const [program, args] of [
    ['ipmi_sim', ['--version']],
    ['ipmitool', ['-V']],
  ] as const) {
    try {
      execFileSync(program, [...args], { stdio: 'ignore', timeout: 5000 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        return `${program} is not installed (apt-get install openipmi ipmitool)`;
      // ipmi_sim --version prints its version and exits 1 (no default config): present is enough.
    }
  }
  return undefined;
}

/**
 * Undefined when ipmi_sim can run; otherwise the reason to skip with, or (CI=true) an error:
 * the tests against the simulated BMC must run in CI.
 */
export function requireIpmiSim(): string | undefined {
  const missing = ipmiSimMissing();
  if (missing !== undefined && process.env.CI === 'true') {
    throw new Error(
      `${missing} (CI=true: the ipmitool interfaces must be tested against ipmi_sim)`,
    );
  }
  return missing;
}

/** A loopback UDP port nobody listens on now. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface IpmiSim {
  readonly address: '127.0.0.1';
  readonly port: number;
  readonly dir: string;
  /** driver_info for a node behind this BMC (`ipmi_cipher_suite` 3, as it needs). */
  driverInfo(extra?: Record<string, unknown>): Record<string, unknown>;
  /** What reached the chassis, one `name value` a line (`power 1`, `boot pxe`, `reset 1`). */
  requests(): string[];
  /** The chassis power now: true on. */
  poweredOn(): boolean;
  /** The chassis boot device (`pxe`, `default`, `cdrom`...). */
  bootDevice(): string;
  /** Changes the power behind the service's back. */
  setPower(on: boolean): void;
  /** Stops answering (the process receives SIGSTOP), or answers again. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

/** Starts one BMC and waits until `power status` answers. */
export async function startIpmiSim(): Promise<IpmiSim> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-ipmi-sim-'));
  const chassis = join(dir, 'chassis');
  const state = join(dir, 'state');
  mkdirSync(chassis);
  mkdirSync(state);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freeUdpPort();
    writeFileSync(
      join(dir, 'lan.conf'),
      [
        'name "baton-test"',
        'set_working_mc 0x20',
        '  startlan 1',
        `    addr 127.0.0.1 ${port}`,
        '    priv_limit admin',
        ...['callback', 'user', 'operator', 'admin'].map(
          (level) => `    allowed_auths_${level} none md2 md5 straight`,
        ),
        '    guid a123456789abcdefa123456789abcdef',
        '  endlan',
        `  chassis_control "${CHASSIS_CONTROL} ${chassis}"`,
        `user 2 true "${IPMI_USER}" "${IPMI_PASSWORD}" admin 10 none md2 md5 straight`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'sim.emu'),
      [
        'mc_setbmc 0x20',
        'mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02 persist_sdr',
        'sel_enable 0x20 1000 0x0a',
        'mc_enable 0x20',
        '',
      ].join('\n'),
    );
    const child = spawn(
      'ipmi_sim',
      ['-c', join(dir, 'lan.conf'), '-f', join(dir, 'sim.emu'), '-s', state, '-n'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    try {
      await waitUntilAnswering(child, port, () => stderr);
      return handle(child, port, dir, chassis);
    } catch (error) {
      lastError = error;
      child.kill('SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

async function waitUntilAnswering(child: ChildProcess, port: number, stderr: () => string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`ipmi_sim exited (${child.exitCode}): ${stderr()}`);
    }
    try {
      execFileSync(
        'ipmitool',
        [
          '-I',
          'lanplus',
          '-C',
          '3',
          '-H',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          IPMI_USER,
          '-P',
          IPMI_PASSWORD,
          '-R',
          '1',
          '-N',
          '1',
          'power',
          'status',
        ],
        { stdio: 'ignore', timeout: 5000 },
      );
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`ipmi_sim on port ${port} did not answer within 10 s: ${stderr()}`);
}

function handle(child: ChildProcess, port: number, dir: string, chassis: string): IpmiSim {
  return {
    address: '127.0.0.1',
    port,
    dir,
    driverInfo: (extra = {}) => ({
      ipmi_address: '127.0.0.1',
      ipmi_port: port,
      ipmi_username: IPMI_USER,
      ipmi_password: IPMI_PASSWORD,
      ipmi_cipher_suite: 3,
      ...extra,
    }),
    requests: () =>
      readOr(join(chassis, 'requests'), '')
        .split('\n')
        .filter((line) => line !== ''),
    poweredOn: () => readOr(join(chassis, 'power'), '0') === '1',
    bootDevice: () => readOr(join(chassis, 'boot'), 'default'),
    setPower: (on) => writeFileSync(join(chassis, 'power'), on ? '1' : '0'),
    freeze: () => {
      child.kill('SIGSTOP');
    },
    thaw: () => {
      child.kill('SIGCONT');
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
