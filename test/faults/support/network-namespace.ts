/**
 * A network namespace joined to the host by a veth pair (host 10.231.X.1, namespace
 * 10.231.X.2), so a test can run processes on the other side of a link it can cut: both ends
 * drop every packet (tc's blackhole qdisc: nothing is refused, as in a partition, not a crash;
 * netem and the filters are not in this machine's kernel),
 * then pass them again. Taking the link down instead would remove its route, and packets would
 * leave by the default route (on this machine something there answers). Needs root
 * (CAP_NET_ADMIN).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function ip(...args: string[]): Promise<void> {
  await run('ip', args, { timeout: 30_000 });
}

export class NetworkNamespace {
  cuts = 0;
  readonly name: string;
  readonly hostAddress: string;
  readonly innerAddress: string;
  readonly #hostEnd: string;
  readonly #innerEnd: string;

  private constructor(id: string, subnet: number) {
    this.name = `baton-fault-${id}`;
    this.#hostEnd = `bf${id}h`;
    this.#innerEnd = `bf${id}n`;
    this.hostAddress = `10.231.${subnet}.1`;
    this.innerAddress = `10.231.${subnet}.2`;
  }

  /** Why this machine cannot make one (not root), or undefined. */
  static unavailable(): string | undefined {
    return process.getuid?.() === 0 ? undefined : 'network namespaces need root (CAP_NET_ADMIN)';
  }

  static async create(): Promise<NetworkNamespace> {
    const bytes = randomBytes(4);
    const ns = new NetworkNamespace(bytes.toString('hex').slice(0, 6), bytes[3] ?? 0);
    const inner = ns.#innerEnd;
    await ip('netns', 'add', ns.name);
    try {
      await ip('link', 'add', ns.#hostEnd, 'type', 'veth', 'peer', 'name', inner);
      await ip('link', 'set', inner, 'netns', ns.name);
      await ip('addr', 'add', `${ns.hostAddress}/30`, 'dev', ns.#hostEnd);
      await ip('link', 'set', ns.#hostEnd, 'up');
      await ip(
        'netns',
        'exec',
        ns.name,
        'ip',
        'addr',
        'add',
        `${ns.innerAddress}/30`,
        'dev',
        inner,
      );
      await ip('netns', 'exec', ns.name, 'ip', 'link', 'set', inner, 'up');
      await ip('netns', 'exec', ns.name, 'ip', 'link', 'set', 'lo', 'up');
    } catch (error) {
      await ns.destroy();
      throw error;
    }
    return ns;
  }

  /** The prefix that runs a command inside the namespace. */
  get exec(): string[] {
    return ['ip', 'netns', 'exec', this.name];
  }

  /** Every packet either way is dropped from now on. */
  async cut(): Promise<void> {
    await run('tc', ['qdisc', 'add', 'dev', this.#hostEnd, 'root', 'blackhole']);
    await ip(
      'netns',
      'exec',
      this.name,
      'tc',
      'qdisc',
      'add',
      'dev',
      this.#innerEnd,
      'root',
      'blackhole',
    );
    this.cuts += 1;
  }

  async restore(): Promise<void> {
    await run('tc', ['qdisc', 'del', 'dev', this.#hostEnd, 'root']);
    await ip('netns', 'exec', this.name, 'tc', 'qdisc', 'del', 'dev', this.#innerEnd, 'root');
  }

  async destroy(): Promise<void> {
    await ip('link', 'del', this.#hostEnd).catch(() => {});
    await ip('netns', 'del', this.name).catch(() => {});
  }
}
