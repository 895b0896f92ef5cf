/**
 * One side of a `baremetal` client session compared with another (the real client against
 * Baton or the real Ironic): its endpoint, its client process (support/baremetal-batch.ts),
 * the values commands captured, and its output with what differs between runs set aside
 * (UUIDs named by order of appearance, timestamps, addresses, table widths, set orders).
 */
import { BaremetalBatch } from '../../../support/baremetal-batch.ts';
import { type CliResult, pythonEnv } from '../../../support/real-ironic.ts';

export interface Command {
  readonly args: readonly string[];
  /** Remembers a value of the output under a name `{name}` later commands use. */
  readonly capture?: { readonly name: string; readonly pattern: RegExp };
  /**
   * The node whose power action ran in the background (202): the session waits until its
   * target power state is cleared, as a user looking again a moment later would find it.
   */
  readonly settles?: string;
}

export const cmd = (line: string, capture?: Command['capture']): Command => ({
  args: line.split(' '),
  ...(capture === undefined ? {} : { capture }),
});
export const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/;

const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:\+00:00|Z)?/g;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** One side's session: its endpoint, its client process, captured values, and UUID names. */
export class CliSide {
  readonly #url: string;
  readonly #client: BaremetalBatch;
  readonly #captured = new Map<string, string>();
  readonly #uuids = new Map<string, string>();
  readonly #values: readonly (readonly [string, string])[];

  /**
   * `values`: what differs between the sides by design (a BMC's port, say), used in commands as
   * `{name}` and shown as `{name}` in the normalized output.
   */
  constructor(url: string, values: Readonly<Record<string, string>> = {}) {
    this.#url = url;
    this.#client = new BaremetalBatch(url, pythonEnv());
    this.#values = Object.entries(values);
    for (const [name, value] of this.#values) this.#captured.set(name, value);
  }

  close(): void {
    this.#client.close();
  }

  async run(command: Command): Promise<CliResult> {
    const args = command.args.map((arg) =>
      arg.replace(/\{(\w+)\}/g, (all, name: string) => this.#captured.get(name) ?? all),
    );
    const result = await this.#client.run(args, 120_000);
    if (command.capture !== undefined) {
      const found = command.capture.pattern.exec(result.stdout);
      if (found?.[1] !== undefined) this.#captured.set(command.capture.name, found[1]);
    }
    if (command.settles !== undefined) await this.#settle(command.settles);
    return result;
  }

  async #settle(node: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    const show = ['node', 'show', node, '-f', 'value', '-c', 'target_power_state'];
    for (;;) {
      const shown = await this.#client.run(show, 60_000);
      if (shown.code !== 0 || shown.stdout.trim() === 'None') return;
      if (Date.now() > deadline)
        throw new Error(`${node} kept a target power state: ${shown.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The output without what differs between runs (and between table widths). */
  normalize(text: string): string[] {
    let given = text;
    for (const [name, value] of this.#values) given = given.replaceAll(value, `{${name}}`);
    const out = given
      .replaceAll(this.#url, '{base}')
      .replace(UUIDS, (uuid) => {
        let name = this.#uuids.get(uuid);
        if (name === undefined) {
          name = `{uuid-${this.#uuids.size + 1}}`;
          this.#uuids.set(uuid, name);
        }
        return name;
      })
      .replace(TIMESTAMP, '{time}');
    return (
      out
        .split('\n')
        .filter((line) => !/^\+[-+]+\+$/.test(line.trim()))
        .map((line) => line.replace(/[ ]+/g, ' ').trim())
        // The real service lists these in Python set order, which changes between runs.
        .map((line) =>
          line.replace(
            /^\| (enabled_\w+_interfaces|hosts) \| (.*) \|$/,
            (_, key: string, items: string) =>
              `| ${key} | ${items.split(', ').sort().join(', ')} |`,
          ),
        )
        .filter((line) => line !== '')
    );
  }
}
