/**
 * The data check after a rehearsal: every write the load generator saw acknowledged is in the
 * database with its value, field by field (a name, each `extra` key, a shard, an inventory, a
 * port's address and node, the last provision state reached), every node is at rest (a stable
 * state, no target, no reservation), and no reservation is left anywhere. It counts what it
 * compared per field and per microversion the value was written at, so the report says what
 * was checked. Pure: it compares the ledger with rows read.
 */
import type { InventoryBody, Ledger, Written } from './ledger.ts';

export interface NodeRow {
  readonly uuid: string;
  readonly name: string | null;
  readonly extra: Readonly<Record<string, unknown>>;
  /** NULL, or absent before the schema has the column. */
  readonly shard?: string | null;
  /** The node's `node_inventory` row, when it has one. */
  readonly inventory?: InventoryBody;
  readonly provisionState: string;
  readonly targetProvisionState: string | null;
  readonly reservation: string | null;
  readonly targetPowerState: string | null;
}

export interface PortRow {
  readonly uuid: string;
  readonly address: string | null;
  readonly nodeUuid: string | null;
}

/** What a service's data check found: what it compared, and each problem. */
export interface DataCheckResult {
  /** One line for the report: the rows acknowledged and those in the database. */
  readonly summary: string;
  /** Acknowledged values compared, by `field @microversion`. */
  readonly compared: Readonly<Record<string, number>>;
  readonly problems: readonly string[];
}

/** The bare metal data check: nodes and ports expected and found, and each problem. */
export interface BaremetalDataCheck extends DataCheckResult {
  readonly nodesExpected: number;
  readonly portsExpected: number;
  readonly nodesInDatabase: number;
  readonly portsInDatabase: number;
}

/** The states a node may be left in: stable, and not a failure. */
export const AT_REST_STATES: ReadonlySet<string> = new Set([
  'enroll',
  'manageable',
  'available',
  'active',
]);

/** The keys of `extra` that held an inventory before the new release moves it out. */
const INVENTORY_KEYS = ['inventory', 'plugin_data'];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The inventory a node row holds: its `node_inventory` row, else the old place in `extra`. */
function storedInventory(row: NodeRow): InventoryBody | undefined {
  if (row.inventory !== undefined) return row.inventory;
  if (!Object.hasOwn(row.extra, 'inventory')) return undefined;
  return {
    inventory: row.extra.inventory as Record<string, unknown>,
    plugin_data: (row.extra.plugin_data ?? {}) as Record<string, unknown>,
  };
}

export function checkData(
  ledger: Ledger,
  nodes: readonly NodeRow[],
  ports: readonly PortRow[],
): BaremetalDataCheck {
  const problems: string[] = [];
  const compared: Record<string, number> = {};
  const compare = (
    what: string,
    field: string,
    written: Written<unknown>,
    stored: unknown,
  ): void => {
    const label = `${field} @${written.microversion}`;
    compared[label] = (compared[label] ?? 0) + 1;
    if (!same(stored, written.value)) {
      problems.push(
        `${what}: ${field} is ${JSON.stringify(stored)}, the acknowledged write (at ${written.microversion}) was ${JSON.stringify(written.value)}`,
      );
    }
  };
  const nodeByUuid = new Map(nodes.map((node) => [node.uuid, node]));
  const portByUuid = new Map(ports.map((port) => [port.uuid, port]));
  for (const expected of ledger.nodes.values()) {
    const row = nodeByUuid.get(expected.uuid);
    const what = `node ${expected.uuid}`;
    if (row === undefined) {
      problems.push(`${what} (${expected.name.value}) was created but is missing`);
      continue;
    }
    compare(what, 'name', expected.name, row.name);
    for (const [key, written] of Object.entries(expected.extra)) {
      if (!INVENTORY_KEYS.includes(key)) compare(what, `extra.${key}`, written, row.extra[key]);
    }
    if (expected.shard !== undefined) compare(what, 'shard', expected.shard, row.shard ?? null);
    if (expected.inventory !== undefined)
      compare(what, 'inventory', expected.inventory, storedInventory(row));
    if (row.provisionState !== expected.provisionState) {
      problems.push(
        `${what}: provision_state ${row.provisionState}, last reached ${expected.provisionState}`,
      );
    }
  }
  for (const row of nodes) {
    if (!AT_REST_STATES.has(row.provisionState)) {
      problems.push(`node ${row.uuid}: left in provision_state ${row.provisionState}`);
    }
    if (row.targetProvisionState !== null) {
      problems.push(`node ${row.uuid}: target_provision_state ${row.targetProvisionState}`);
    }
    if (row.targetPowerState !== null) {
      problems.push(`node ${row.uuid}: target_power_state ${row.targetPowerState}`);
    }
    if (row.reservation !== null) {
      problems.push(`node ${row.uuid}: reservation left by ${row.reservation}`);
    }
  }
  for (const expected of ledger.ports.values()) {
    const row = portByUuid.get(expected.uuid);
    if (row === undefined) {
      problems.push(`port ${expected.uuid} (${expected.address}) was created but is missing`);
      continue;
    }
    const at = (value: string) => ({ value, microversion: expected.microversion });
    compare(`port ${expected.uuid}`, 'address', at(expected.address), row.address);
    compare(`port ${expected.uuid}`, 'node', at(expected.nodeUuid), row.nodeUuid);
  }
  return {
    summary: `${ledger.nodes.size} nodes and ${ledger.ports.size} ports acknowledged; ${nodes.length} nodes and ${ports.length} ports in the database`,
    nodesExpected: ledger.nodes.size,
    portsExpected: ledger.ports.size,
    nodesInDatabase: nodes.length,
    portsInDatabase: ports.length,
    compared,
    problems,
  };
}
