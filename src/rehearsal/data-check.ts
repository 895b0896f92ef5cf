/**
 * The data check after a rehearsal: every write the load generator saw acknowledged is in the
 * database with its value, every node is at rest (a stable state, no target, no reservation),
 * and no reservation is left anywhere. Pure: it compares the ledger with rows read.
 */
import type { Ledger } from './ledger.ts';

export interface NodeRow {
  readonly uuid: string;
  readonly name: string | null;
  readonly extra: Readonly<Record<string, unknown>>;
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

export interface DataCheckResult {
  readonly nodesExpected: number;
  readonly portsExpected: number;
  readonly nodesInDatabase: number;
  readonly portsInDatabase: number;
  readonly problems: readonly string[];
}

/** The states a node may be left in: stable, and not a failure. */
export const AT_REST_STATES: ReadonlySet<string> = new Set([
  'enroll',
  'manageable',
  'available',
  'active',
]);

export function checkData(
  ledger: Ledger,
  nodes: readonly NodeRow[],
  ports: readonly PortRow[],
): DataCheckResult {
  const problems: string[] = [];
  const nodeByUuid = new Map(nodes.map((node) => [node.uuid, node]));
  const portByUuid = new Map(ports.map((port) => [port.uuid, port]));
  for (const expected of ledger.nodes.values()) {
    const row = nodeByUuid.get(expected.uuid);
    if (row === undefined) {
      problems.push(`node ${expected.uuid} (${expected.name}) was created but is missing`);
      continue;
    }
    if (row.name !== expected.name) {
      problems.push(`node ${expected.uuid}: name ${row.name}, expected ${expected.name}`);
    }
    for (const [key, value] of Object.entries(expected.extra)) {
      if (row.extra[key] !== value) {
        problems.push(
          `node ${expected.uuid}: extra.${key} is ${JSON.stringify(row.extra[key])}, the acknowledged write was ${JSON.stringify(value)}`,
        );
      }
    }
    if (row.provisionState !== expected.provisionState) {
      problems.push(
        `node ${expected.uuid}: provision_state ${row.provisionState}, last reached ${expected.provisionState}`,
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
    if (row.address !== expected.address || row.nodeUuid !== expected.nodeUuid) {
      problems.push(
        `port ${expected.uuid}: ${row.address} on node ${row.nodeUuid}, expected ${expected.address} on ${expected.nodeUuid}`,
      );
    }
  }
  return {
    nodesExpected: ledger.nodes.size,
    portsExpected: ledger.ports.size,
    nodesInDatabase: nodes.length,
    portsInDatabase: ports.length,
    problems,
  };
}
