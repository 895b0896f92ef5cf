/**
 * A node's BIOS settings (Ironic's `*_bios_setting*` db functions, API 1.40): rows of
 * `bios_settings` keyed by the node's id and the setting's name, written by a BIOS interface
 * that caches the settings it read (fake hardware's writes none, as the real fake's), read by
 * the API. Written at the caps in force like every object table; deleted with the node.
 */
import { inRetriedTransaction } from '../../db/index.ts';
import { BIOS_REGISTRY_FIELDS, BIOSSetting, type BIOSSettingObject } from '../objects/index.ts';
import { parseJsonColumns, toColumns } from './codec.ts';
import type { StoreContext } from './context.ts';
import { biosSettingNotFound, DuplicateError } from './errors.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import type { Row } from './tables.ts';

const COLUMNS = [...BIOSSetting.fieldNames, 'version'] as const;

function settingFromRow(row: Row): BIOSSettingObject {
  const parsed = parseJsonColumns(row, ['allowable_values']);
  return objectFromRow(BIOSSetting, { ...parsed, node_id: String(parsed.node_id) });
}

function selectSettings(ctx: StoreContext, nodeId: number) {
  return ctx.database.kysely
    .selectFrom('bios_settings')
    .select(COLUMNS as unknown as never[])
    .where('node_id', '=', nodeId);
}

/**
 * The node's settings (get_bios_setting_list). Ironic reads them in the database's order; Baton
 * gives them in name order on every backend.
 */
export async function listBiosSettings(
  ctx: StoreContext,
  nodeId: number,
): Promise<BIOSSettingObject[]> {
  const rows = await selectSettings(ctx, nodeId).orderBy('name').execute();
  return rows.map((row) => settingFromRow(row as Row));
}

/** One setting (get_bios_setting); BIOSSettingNotFound names the node's id, as Ironic's. */
export async function getBiosSetting(
  ctx: StoreContext,
  nodeId: number,
  name: string,
): Promise<BIOSSettingObject> {
  const row = await selectSettings(ctx, nodeId).where('name', '=', name).executeTakeFirst();
  if (row === undefined) throw biosSettingNotFound(nodeId, name);
  return settingFromRow(row as Row);
}

/**
 * New settings of a node, in one transaction (create_bios_setting_list); a name the node
 * already has is BIOSSettingAlreadyExists (409).
 */
export async function createBiosSettings(
  ctx: StoreContext,
  settings: readonly BIOSSettingObject[],
): Promise<void> {
  await inRetriedTransaction(ctx.database, async (trx) => {
    for (const setting of settings) {
      const values = changesForDb(setting, ctx.targets);
      values.node_id = Number(values.node_id);
      if (values.created_at === undefined || values.created_at === null) {
        values.created_at = ctx.now();
      }
      const existing = await trx
        .selectFrom('bios_settings')
        .select('name')
        .where('node_id', '=', values.node_id as number)
        .where('name', '=', String(values.name))
        .executeTakeFirst();
      if (existing !== undefined) {
        throw new DuplicateError(
          'bios_setting',
          'name',
          String(values.name),
          `A BIOS setting ${String(values.name)} for node ${String(values.node_id)} already exists.`,
        );
      }
      await trx
        .insertInto('bios_settings')
        .values(toColumns(values) as never)
        .execute();
    }
  });
}

/**
 * Changes existing settings of a node, in one transaction (update_bios_setting_list): the
 * value and the registry fields are written as given (a registry field left out is cleared, as
 * Ironic's update does); a name the node lacks is BIOSSettingNotFound.
 */
export async function updateBiosSettings(
  ctx: StoreContext,
  settings: readonly BIOSSettingObject[],
): Promise<void> {
  await inRetriedTransaction(ctx.database, async (trx) => {
    for (const setting of settings) {
      const nodeId = Number(setting.get('node_id'));
      const name = setting.get('name');
      const values: Row = { value: setting.get('value') };
      for (const field of BIOS_REGISTRY_FIELDS) {
        values[field] = setting.isSet(field) ? setting.get(field) : null;
      }
      const version = changesForDb(setting, ctx.targets).version;
      const result = await trx
        .updateTable('bios_settings')
        .set({ ...toColumns(values), version, updated_at: ctx.now() } as never)
        .where('node_id', '=', nodeId)
        .where('name', '=', name)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw biosSettingNotFound(nodeId, name);
    }
  });
}

/** Removes the named settings of a node, or all of them when no names are given. */
export async function deleteBiosSettings(
  ctx: StoreContext,
  nodeId: number,
  names?: readonly string[],
): Promise<void> {
  let query = ctx.database.kysely.deleteFrom('bios_settings').where('node_id', '=', nodeId);
  if (names !== undefined) {
    if (names.length === 0) return;
    query = query.where('name', 'in', [...names]);
  }
  await query.execute();
}
