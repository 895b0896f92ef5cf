/**
 * What the load generator saw acknowledged: the nodes it created with their names, the extra
 * values its PATCHes set, the provision state each node last reached, and the ports it
 * created. The data check holds the database to it. Pure.
 */

export interface ExpectedPort {
  readonly uuid: string;
  readonly address: string;
  readonly nodeUuid: string;
}

export interface ExpectedNode {
  readonly uuid: string;
  readonly name: string;
  /** Keys the generator wrote in `extra`, with the last acknowledged value. */
  readonly extra: Record<string, string>;
  /** The stable state the generator last saw the node reach. */
  provisionState: string;
}

export class Ledger {
  readonly nodes = new Map<string, ExpectedNode>();
  readonly ports = new Map<string, ExpectedPort>();

  nodeCreated(uuid: string, name: string, extra: Record<string, string>, state: string): void {
    this.nodes.set(uuid, { uuid, name, extra: { ...extra }, provisionState: state });
  }

  extraSet(uuid: string, key: string, value: string): void {
    const node = this.nodes.get(uuid);
    if (node !== undefined) node.extra[key] = value;
  }

  stateReached(uuid: string, state: string): void {
    const node = this.nodes.get(uuid);
    if (node !== undefined) node.provisionState = state;
  }

  portCreated(port: ExpectedPort): void {
    this.ports.set(port.uuid, port);
  }
}
