/**
 * Running `ipmitool` against one node's BMC as the real `_exec_ipmitool` does: the arguments
 * built from driver_info (`-I lanplus -H … -L … -p … -U … -C …`, bridging options), the timing
 * options `-R 1 -N <min_command_interval>`, the password in a 0600 file passed with `-f`, so it
 * is never on a command line (a Kg key is, with `-y`, as the real one passes it; log lines show
 * it as `******`);
 * at least `[ipmi] min_command_interval` between two commands to one BMC; a failed command
 * retried until `[ipmi] command_retry_timeout` has passed; each run killed when it outlives
 * that same timeout. The program runs with an argument array, never through a shell.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PasswordFileFailedToCreateError } from '../../common/ipmi-errors.ts';
import type { IpmiDriverInfo } from './driver-info.ts';
import type { IpmiLog, IpmiSettings } from './ipmi-settings.ts';

/** A failed run: what ipmitool printed and how it ended. */
export class IpmitoolExecutionError extends Error {
  override name = 'IpmitoolExecutionError';
  readonly cmd: string;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  constructor(cmd: string, exitCode: number | null, stdout: string, stderr: string, why: string) {
    super(
      `Unexpected error while running command.\nCommand: ${cmd}\nExit code: ${exitCode ?? '-'}\nStdout: ${JSON.stringify(stdout)}\nStderr: ${JSON.stringify(stderr)}${why === '' ? '' : `\nReason: ${why}`}`,
    );
    this.cmd = cmd;
    this.exitCode = exitCode;
    this.stdout = stdout;
    this.stderr = stderr;
  }
}

export interface IpmitoolOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Called with each child as it starts (tests read its real argv from /proc). */
export type SpawnObserver = (child: ChildProcess, argv: readonly string[]) => void;

/** The arguments before the command (`_get_ipmitool_args` and the timing ones), no secret. */
export function ipmitoolArgs(info: IpmiDriverInfo, settings: IpmiSettings): string[] {
  const args = [
    '-I',
    info.protocolVersion === '2.0' ? 'lanplus' : 'lan',
    '-H',
    info.address,
    '-L',
    info.privLevel,
  ];
  if (info.destPort) args.push('-p', String(info.destPort));
  if (info.username) args.push('-U', info.username);
  if (info.hexKgKey) args.push('-y', info.hexKgKey);
  if (info.cipherSuite) args.push('-C', info.cipherSuite);
  const bridging: [string | null, string][] = [
    [info.localAddress, '-m'],
    [info.transitChannel, '-B'],
    [info.transitAddress, '-T'],
    [info.targetChannel, '-b'],
    [info.targetAddress, '-t'],
  ];
  for (const [value, option] of bridging) if (value !== null) args.push(option, value);
  if (settings.debug) args.push('-v');
  // use_ipmitool_retries = False (the default): one try per run, Ironic retries.
  args.push('-R', '1', '-N', String(settings.minCommandInterval));
  return args;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One per conductor, shared by its ipmitool interfaces (the real LAST_CMD_TIME is the
 * module's): commands to one BMC (address and port) run one at a time, spaced.
 */
export class IpmitoolRunner {
  readonly settings: IpmiSettings;
  readonly #log: IpmiLog;
  readonly #lastCommandAt = new Map<string, number>();
  readonly #queues = new Map<string, Promise<unknown>>();
  observer: SpawnObserver | undefined;

  constructor(settings: IpmiSettings, log: IpmiLog) {
    this.settings = settings;
    this.#log = log;
  }

  /**
   * `_exec_ipmitool`: runs `command` (words split on spaces, as the real one splits them),
   * retrying a failure within command_retry_timeout; the last failure is thrown
   * (IpmitoolExecutionError or PasswordFileFailedToCreateError).
   */
  exec(info: IpmiDriverInfo, command: string): Promise<IpmitoolOutput> {
    const bmc = `${info.address}:${info.destPort ?? 623}`;
    const previous = this.#queues.get(bmc) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(() => this.#execWithRetries(bmc, info, command));
    const tail = run.catch(() => {});
    this.#queues.set(bmc, tail);
    void tail.then(() => {
      if (this.#queues.get(bmc) === tail) this.#queues.delete(bmc);
    });
    return run;
  }

  async #execWithRetries(bmc: string, info: IpmiDriverInfo, command: string) {
    const { commandRetryTimeout, minCommandInterval } = this.settings;
    const endTime = Date.now() + commandRetryTimeout * 1000;
    let triesLeft =
      minCommandInterval > 0
        ? Math.max(Math.floor(commandRetryTimeout / minCommandInterval), 1)
        : Infinity;
    for (;;) {
      triesLeft -= 1;
      const wait = minCommandInterval * 1000 - (Date.now() - (this.#lastCommandAt.get(bmc) ?? 0));
      if (wait > 0) await sleep(wait);
      try {
        return await this.#runOnce(info, command);
      } catch (error) {
        const cmd = error instanceof IpmitoolExecutionError ? error.cmd : command;
        if (Date.now() > endTime || triesLeft <= 0 || !(error instanceof IpmitoolExecutionError)) {
          this.#log.error(
            `IPMI Error while attempting "${cmd}" for node ${info.uuid}. Error: ${(error as Error).message}`,
          );
          throw error;
        }
        this.#log.warn(
          `IPMI Error encountered, retrying "${cmd}" for node ${info.uuid}. Error: ${error.message}`,
        );
        // Never spin on a BMC that fails at once when no interval is configured.
        if (minCommandInterval <= 0) await sleep(100);
      } finally {
        this.#lastCommandAt.set(bmc, Date.now());
      }
    }
  }

  async #runOnce(info: IpmiDriverInfo, command: string): Promise<IpmitoolOutput> {
    const file = join(this.settings.tempDir ?? tmpdir(), `baton-ipmi-${randomUUID()}`);
    try {
      // The real one writes a NUL for an empty password, which ipmitool reads as none.
      await writeFile(file, info.password === '' ? '\0' : info.password, {
        mode: 0o600,
        flag: 'wx',
      });
    } catch (error) {
      throw new PasswordFileFailedToCreateError(String(error));
    }
    try {
      const argv = [...ipmitoolArgs(info, this.settings), '-f', file, ...command.split(' ')];
      return await this.#spawn(argv);
    } finally {
      await rm(file, { force: true });
    }
  }

  #spawn(argv: string[]): Promise<IpmitoolOutput> {
    const program = this.settings.ipmitoolPath;
    const shown = argv.map((arg, i) => (argv[i - 1] === '-y' ? '******' : arg));
    const cmd = [program, ...shown].join(' ');
    this.#log.debug?.(`Execute: ${cmd}`);
    const env = { ...process.env };
    delete env.IPMI_PASSWORD;
    delete env.IPMI_KGKEY;
    const timeout = this.settings.commandRetryTimeout * 1000;
    return new Promise((resolve, reject) => {
      const child = execFile(
        program,
        argv,
        { env, timeout, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error === null) {
            resolve({ stdout, stderr });
            return;
          }
          const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
          const exitCode = typeof failure.code === 'number' ? failure.code : null;
          const why = failure.killed
            ? `killed after ${this.settings.commandRetryTimeout} s`
            : exitCode === null
              ? String(failure.code ?? failure.message)
              : '';
          reject(new IpmitoolExecutionError(cmd, exitCode, stdout, stderr, why));
        },
      );
      this.observer?.(child, [program, ...argv]);
    });
  }
}
