/**
 * Volume connectors and volume targets (Ironic's `*_volume_connector*` and `*_volume_target*`
 * db functions): read by id or UUID, listed by node or by the project (owner or lessee) of their
 * node, created by the API process and saved or destroyed by the conductor. The two tables differ
 * only in their columns and in what their second unique constraint covers, so one set of
 * functions serves both, given the table's description.
 */
import { randomUUID } from 'node:crypto';
import { retryOnDeadlock } from '../../db/index.ts';
import type { FieldMap, ObjectType, VersionedObject } from '../../objects/index.ts';
import {
  VolumeConnector,
  type VolumeConnectorObject,
  VolumeTarget,
  type VolumeTargetObject,
} from '../objects/index.ts';
import { toColumns } from './codec.ts';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  violatedUniqueColumn,
} from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import {
  connectorTypeAndIdTaken,
  duplicateOf,
  InvalidParameterError,
  NotFoundError,
  targetBootIndexTaken,
} from './errors.ts';
import { identityOf } from './identity.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import type { Row } from './tables.ts';

interface VolumeTable<F extends FieldMap> {
  readonly table: 'volume_connectors' | 'volume_targets';
  readonly kind: 'volume_connector' | 'volume_target';
  readonly type: ObjectType<F>;
  readonly uuidConstraint: string;
  /** The error for the other unique constraint (type and connector ID; node and boot index). */
  readonly taken: (values: Row) => Error;
}

const CONNECTORS: VolumeTable<typeof VolumeConnector.fields> = {
  table: 'volume_connectors',
  kind: 'volume_connector',
  type: VolumeConnector,
  uuidConstraint: 'uniq_volumeconnectors0uuid',
  taken: (values) => connectorTypeAndIdTaken(String(values.type), String(values.connector_id)),
};

const TARGETS: VolumeTable<typeof VolumeTarget.fields> = {
  table: 'volume_targets',
  kind: 'volume_target',
  type: VolumeTarget,
  uuidConstraint: 'uniq_volumetargets0uuid',
  taken: (values) => targetBootIndexTaken(String(values.boot_index)),
};

/** Ironic's filters of the volume lists: by node, or by the project of the node. */
export interface VolumeFilters {
  readonly node_id?: number;
  /** Those of nodes this project owns or leases. */
  readonly project?: string;
}

function select<F extends FieldMap>(ctx: StoreContext, spec: VolumeTable<F>) {
  const columns = [...spec.type.fieldNames, 'version'].map((c) => `${spec.table}.${c}`);
  return ctx.database.kysely.selectFrom(spec.table).select(columns as never[]);
}

async function getWhere<F extends FieldMap>(
  ctx: StoreContext,
  spec: VolumeTable<F>,
  ident: string | number,
): Promise<VersionedObject<F>> {
  const identity = identityOf(ident);
  const [column, value] = 'id' in identity ? ['id', identity.id] : ['uuid', identity.uuid];
  const row = await select(ctx, spec)
    .where(`${spec.table}.${column}` as never, '=', value as never)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError(spec.kind, ident);
  return objectFromRow(spec.type, row as Row);
}

async function list<F extends FieldMap>(
  ctx: StoreContext,
  spec: VolumeTable<F>,
  filters: VolumeFilters,
  page: PageOptions,
): Promise<VersionedObject<F>[]> {
  checkPageOptions(spec.table, page);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, spec.table, spec.kind, page);
  let query = select(ctx, spec);
  if (filters.node_id !== undefined)
    query = query.where(`${spec.table}.node_id` as never, '=', filters.node_id as never);
  if (filters.project !== undefined) {
    const project = filters.project;
    query = query
      .innerJoin('nodes', 'nodes.id', `${spec.table}.node_id` as never)
      .where((eb) =>
        eb.or([eb('nodes.owner', '=', project), eb('nodes.lessee', '=', project)]),
      ) as unknown as typeof query;
  }
  const rows = await applyPage(query, spec.table, page, marker).execute();
  return rows.map((row) => objectFromRow(spec.type, row as Row));
}

function writeError<F extends FieldMap>(spec: VolumeTable<F>, error: unknown, values: Row): never {
  if (isUniqueViolation(error)) {
    const uuid = violatedUniqueColumn(error, spec.table, { [spec.uuidConstraint]: 'uuid' });
    if (uuid === 'uuid') throw duplicateOf(spec.kind, 'uuid', String(values.uuid));
    throw spec.taken(values);
  }
  if (isForeignKeyViolation(error) && values.node_id !== undefined) {
    throw new NotFoundError('node', Number(values.node_id));
  }
  throw error;
}

async function create<F extends FieldMap>(
  ctx: StoreContext,
  spec: VolumeTable<F>,
  obj: VersionedObject<F>,
): Promise<VersionedObject<F>> {
  const values = changesForDb(obj, ctx.targets);
  delete values.id;
  if (!values.uuid) values.uuid = randomUUID();
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  try {
    await retryOnDeadlock(() =>
      ctx.database.kysely
        .insertInto(spec.table)
        .values(toColumns(values) as never)
        .execute(),
    );
  } catch (error) {
    writeError(spec, error, values);
  }
  return getWhere(ctx, spec, String(values.uuid));
}

/** Writes the changed fields (VolumeConnector.save, VolumeTarget.save); returns the row now. */
async function save<F extends FieldMap>(
  ctx: StoreContext,
  spec: VolumeTable<F>,
  obj: VersionedObject<F>,
): Promise<VersionedObject<F>> {
  const uuid = obj.get('uuid' as never) as string | null;
  if (uuid === null) throw new InvalidParameterError('A volume without a UUID cannot be saved');
  const values = changesForDb(obj, ctx.targets);
  if ('uuid' in values) {
    const name = spec.kind === 'volume_connector' ? 'VolumeConnector' : 'VolumeTarget';
    throw new InvalidParameterError(`Cannot overwrite UUID for an existing ${name}.`, 'uuid');
  }
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  let updated = 0;
  try {
    const result = await retryOnDeadlock(() =>
      ctx.database.kysely
        .updateTable(spec.table)
        .set(toColumns(values) as never)
        .where('uuid', '=', uuid)
        .executeTakeFirst(),
    );
    updated = Number(result.numUpdatedRows);
  } catch (error) {
    // The other unique constraint needs both columns: name them as the row will hold them.
    const current = { ...obj.asDict(), ...values } as Row;
    writeError(spec, error, current);
  }
  if (updated === 0) throw new NotFoundError(spec.kind, uuid);
  return getWhere(ctx, spec, uuid);
}

async function destroy<F extends FieldMap>(
  ctx: StoreContext,
  spec: VolumeTable<F>,
  ident: string | number,
): Promise<void> {
  const identity = identityOf(ident);
  const [column, value] = 'id' in identity ? ['id', identity.id] : ['uuid', identity.uuid];
  const result = await retryOnDeadlock(() =>
    ctx.database.kysely
      .deleteFrom(spec.table)
      .where(column as never, '=', value as never)
      .executeTakeFirst(),
  );
  if (Number(result.numDeletedRows) === 0) throw new NotFoundError(spec.kind, ident);
}

export const getVolumeConnector = (ctx: StoreContext, ident: string | number) =>
  getWhere(ctx, CONNECTORS, ident) as Promise<VolumeConnectorObject>;
export const listVolumeConnectors = (
  ctx: StoreContext,
  filters: VolumeFilters = {},
  page: PageOptions = {},
) => list(ctx, CONNECTORS, filters, page) as Promise<VolumeConnectorObject[]>;
export const createVolumeConnector = (ctx: StoreContext, connector: VolumeConnectorObject) =>
  create(ctx, CONNECTORS, connector) as Promise<VolumeConnectorObject>;
export const saveVolumeConnector = (ctx: StoreContext, connector: VolumeConnectorObject) =>
  save(ctx, CONNECTORS, connector) as Promise<VolumeConnectorObject>;
export const destroyVolumeConnector = (ctx: StoreContext, ident: string | number) =>
  destroy(ctx, CONNECTORS, ident);

export const getVolumeTarget = (ctx: StoreContext, ident: string | number) =>
  getWhere(ctx, TARGETS, ident) as Promise<VolumeTargetObject>;
export const listVolumeTargets = (
  ctx: StoreContext,
  filters: VolumeFilters = {},
  page: PageOptions = {},
) => list(ctx, TARGETS, filters, page) as Promise<VolumeTargetObject[]>;
export const createVolumeTarget = (ctx: StoreContext, target: VolumeTargetObject) =>
  create(ctx, TARGETS, target) as Promise<VolumeTargetObject>;
export const saveVolumeTarget = (ctx: StoreContext, target: VolumeTargetObject) =>
  save(ctx, TARGETS, target) as Promise<VolumeTargetObject>;
export const destroyVolumeTarget = (ctx: StoreContext, ident: string | number) =>
  destroy(ctx, TARGETS, ident);
