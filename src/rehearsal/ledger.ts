/**
 * What the load generator saw acknowledged: the nodes it created with their names, the
 * `extra` values, shards and inventories it wrote, the provision state each node last
 * reached, and the ports it created; each write with the microversion it was made at. The data
 * check holds the database to it, field by field. Pure.
 */

/** A value the service acknowledged, and the microversion of the request that wrote it. */
export interface Written<T> {
  readonly value: T;
  readonly microversion: string;
}

export interface ExpectedPort {
  readonly uuid: string;
  readonly address: string;
  readonly nodeUuid: string;
  readonly microversion: string;
}

/** A node's inventory as `GET /v1/nodes/{node}/inventory` answers it. */
export interface InventoryBody {
  readonly inventory: Record<string, unknown>;
  readonly plugin_data: Record<string, unknown>;
}

export interface ExpectedNode {
  readonly uuid: string;
  readonly name: Written<string>;
  /** Keys the generator wrote in `extra`, with the last acknowledged value. */
  readonly extra: Record<string, Written<string>>;
  /** The last shard set (API 1.82), when one was. */
  shard?: Written<string>;
  /** The inventory the node was created with (kept in `extra` by the previous release). */
  readonly inventory?: Written<InventoryBody>;
  /** The stable state the generator last saw the node reach. */
  provisionState: string;
}

export interface NodeCreated {
  readonly uuid: string;
  readonly name: string;
  /** `extra` as sent, without the inventory keys (those are `inventory`). */
  readonly extra: Readonly<Record<string, string>>;
  readonly inventory?: InventoryBody;
  readonly state: string;
  readonly microversion: string;
}

export class Ledger {
  readonly nodes = new Map<string, ExpectedNode>();
  readonly ports = new Map<string, ExpectedPort>();

  nodeCreated(created: NodeCreated): void {
    const at = (value: string) => ({ value, microversion: created.microversion });
    this.nodes.set(created.uuid, {
      uuid: created.uuid,
      name: at(created.name),
      extra: Object.fromEntries(Object.entries(created.extra).map(([key, v]) => [key, at(v)])),
      ...(created.inventory === undefined
        ? {}
        : { inventory: { value: created.inventory, microversion: created.microversion } }),
      provisionState: created.state,
    });
  }

  extraSet(uuid: string, key: string, value: string, microversion: string): void {
    const node = this.nodes.get(uuid);
    if (node !== undefined) node.extra[key] = { value, microversion };
  }

  shardSet(uuid: string, value: string, microversion: string): void {
    const node = this.nodes.get(uuid);
    if (node !== undefined) node.shard = { value, microversion };
  }

  stateReached(uuid: string, state: string): void {
    const node = this.nodes.get(uuid);
    if (node !== undefined) node.provisionState = state;
  }

  portCreated(port: ExpectedPort): void {
    this.ports.set(port.uuid, port);
  }
}
