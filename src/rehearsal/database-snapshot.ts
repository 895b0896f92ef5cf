/**
 * What the rehearsal reads from the shared database: rows per object version in each object
 * table, the services table, and the nodes and ports the data check compares with the ledger.
 */
import { sql } from 'kysely';
import { OBJECT_TABLES } from '../baremetal/db/index.ts';
import { type Database, listServices } from '../db/index.ts';
import type { NodeRow, PortRow } from './data-check.ts';

/** `{Node: {'1.36': 120}, …}`: SELECT version, count(*) per object table. */
export type VersionCounts = Record<string, Record<string, number>>;

export async function versionCounts(db: Database): Promise<VersionCounts> {
  const counts: VersionCounts = {};
  for (const { table, objectName } of OBJECT_TABLES) {
    const result = await sql<{ version: string | null; n: number | string }>`
      select version, count(*) as n from ${sql.table(table)} group by version order by version`.execute(
      db.kysely,
    );
    counts[objectName] = Object.fromEntries(
      result.rows.map((row) => [row.version ?? 'null', Number(row.n)]),
    );
  }
  return counts;
}

export interface ServiceRow {
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  readonly live: boolean;
}

export async function liveServices(db: Database): Promise<ServiceRow[]> {
  return (await listServices(db))
    .filter((service) => service.live)
    .map(({ binary, host, version, live }) => ({ binary, host, version, live }));
}

const parseExtra = (text: unknown): Record<string, unknown> => {
  if (typeof text !== 'string' || text === '') return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

const parseDict = (text: unknown): Record<string, unknown> | undefined => {
  const parsed = parseExtra(text);
  return text === null || text === undefined ? undefined : parsed;
};

/** The nodes with their shard and `node_inventory` row (the schema is the new release's by then). */
export async function nodeRows(db: Database): Promise<NodeRow[]> {
  const result = await sql<Record<string, unknown>>`
    select nodes.uuid, nodes.name, nodes.extra, nodes.shard, nodes.provision_state,
           nodes.target_provision_state, nodes.reservation, nodes.target_power_state,
           node_inventory.inventory_data, node_inventory.plugin_data
    from nodes left join node_inventory on node_inventory.node_id = nodes.id`.execute(db.kysely);
  return result.rows.map((row) => {
    const inventory = parseDict(row.inventory_data);
    return {
      uuid: String(row.uuid),
      name: (row.name as string | null) ?? null,
      extra: parseExtra(row.extra),
      shard: (row.shard as string | null) ?? null,
      ...(inventory === undefined
        ? {}
        : { inventory: { inventory, plugin_data: parseDict(row.plugin_data) ?? {} } }),
      provisionState: String(row.provision_state),
      targetProvisionState: (row.target_provision_state as string | null) ?? null,
      reservation: (row.reservation as string | null) ?? null,
      targetPowerState: (row.target_power_state as string | null) ?? null,
    };
  });
}

export async function portRows(db: Database): Promise<PortRow[]> {
  const result = await sql<Record<string, unknown>>`
    select ports.uuid as uuid, ports.address as address, nodes.uuid as node_uuid
    from ports left join nodes on nodes.id = ports.node_id`.execute(db.kysely);
  return result.rows.map((row) => ({
    uuid: String(row.uuid),
    address: (row.address as string | null) ?? null,
    nodeUuid: (row.node_uuid as string | null) ?? null,
  }));
}
