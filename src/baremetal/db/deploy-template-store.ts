/**
 * Deploy templates (Ironic's `*_deploy_template*` db functions): written by the API process,
 * read by the conductor when it deploys. A template row and its steps' rows are written in one
 * transaction; its steps come back in the order of their rows.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inRetriedTransaction } from '../../db/index.ts';
import { DeployTemplate, type DeployTemplateObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import { isUniqueViolation, violatedUniqueColumn } from './constraint-errors.ts';
import type { StoreContext } from './context.ts';
import { type StoredStep, stepChanges, type TemplateStep } from './deploy-template-steps.ts';
import { duplicateOf, InvalidParameterError, NotFoundError } from './errors.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import { forUpdate } from './row-locks.ts';
import type { BaremetalTables, Row } from './tables.ts';

type Db = Kysely<BaremetalTables>;

const UNIQUE = { uniq_deploytemplates0name: 'name', uniq_deploytemplates0uuid: 'uuid' };
const COLUMNS = ['id', 'uuid', 'name', 'extra', 'created_at', 'updated_at', 'version'] as const;

async function storedSteps(db: Db, templateIds: readonly number[]) {
  if (templateIds.length === 0) return new Map<number, StoredStep[]>();
  const rows = await db
    .selectFrom('deploy_template_steps')
    .select(['id', 'deploy_template_id', 'interface', 'step', 'args', 'priority'])
    .where('deploy_template_id', 'in', templateIds as number[])
    .orderBy('id')
    .execute();
  const byTemplate = new Map<number, StoredStep[]>();
  for (const row of rows) {
    const list = byTemplate.get(Number(row.deploy_template_id)) ?? [];
    list.push({
      id: Number(row.id),
      step: {
        interface: row.interface,
        step: row.step,
        args: typeof row.args === 'string' ? JSON.parse(row.args) : row.args,
        priority: Number(row.priority),
      },
    });
    byTemplate.set(Number(row.deploy_template_id), list);
  }
  return byTemplate;
}

async function templatesFromRows(db: Db, rows: readonly Row[]): Promise<DeployTemplateObject[]> {
  const steps = await storedSteps(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) =>
    objectFromRow(DeployTemplate, {
      ...row,
      steps: (steps.get(Number(row.id)) ?? []).map((stored) => stored.step),
    }),
  );
}

async function getWhere(
  ctx: StoreContext,
  column: 'id' | 'uuid' | 'name',
  value: string | number,
  db: Db = ctx.database.kysely,
): Promise<DeployTemplateObject> {
  const row = await db
    .selectFrom('deploy_templates')
    .select(COLUMNS as never)
    .where(column, '=', value as never)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('deploy_template', value);
  return (await templatesFromRows(db, [row as Row]))[0] as DeployTemplateObject;
}

export const getDeployTemplateById = (ctx: StoreContext, id: number) => getWhere(ctx, 'id', id);
export const getDeployTemplateByUuid = (ctx: StoreContext, uuid: string) =>
  getWhere(ctx, 'uuid', uuid);
export const getDeployTemplateByName = (ctx: StoreContext, name: string) =>
  getWhere(ctx, 'name', name);

export async function listDeployTemplates(
  ctx: StoreContext,
  page: PageOptions = {},
): Promise<DeployTemplateObject[]> {
  checkPageOptions('deploy_templates', page);
  const db = ctx.database.kysely;
  const marker = await findMarker(db, 'deploy_templates', 'deploy_template', page);
  const query = db.selectFrom('deploy_templates').select(COLUMNS as never);
  const rows = await applyPage(query, 'deploy_templates', page, marker).execute();
  return templatesFromRows(db, rows as Row[]);
}

/** The templates named (the conductor's look-up by a node's instance traits), in id order. */
export async function listDeployTemplatesByNames(
  ctx: StoreContext,
  names: readonly string[],
): Promise<DeployTemplateObject[]> {
  if (names.length === 0) return [];
  const db = ctx.database.kysely;
  const rows = await db
    .selectFrom('deploy_templates')
    .select(COLUMNS as never)
    .where('name', 'in', names as string[])
    .orderBy('id')
    .execute();
  return templatesFromRows(db, rows as Row[]);
}

async function insertSteps(
  ctx: StoreContext,
  db: Db,
  templateId: number,
  steps: readonly TemplateStep[],
) {
  for (const step of steps) {
    await db
      .insertInto('deploy_template_steps')
      .values({
        deploy_template_id: templateId,
        interface: step.interface,
        step: step.step,
        args: JSON.stringify(step.args ?? {}),
        priority: Number(step.priority),
        created_at: ctx.now(),
      })
      .execute();
  }
}

function duplicate(error: unknown, values: Row): Error {
  if (violatedUniqueColumn(error, 'deploy_templates', UNIQUE) === 'name') {
    return duplicateOf('deploy_template', 'name', String(values.name));
  }
  return duplicateOf('deploy_template', 'uuid', String(values.uuid));
}

/**
 * A new template and its steps. The answer carries the steps as given (a priority given as
 * "10" stays a string), as Ironic's create answers from what it wrote, not from a read.
 */
export async function createDeployTemplate(
  ctx: StoreContext,
  template: DeployTemplateObject,
): Promise<DeployTemplateObject> {
  const values = changesForDb(template, ctx.targets);
  const steps = (values.steps ?? []) as TemplateStep[];
  delete values.steps;
  delete values.id;
  if (!values.uuid) values.uuid = randomUUID();
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  let created: DeployTemplateObject;
  try {
    created = await inRetriedTransaction(ctx.database, async (trx) => {
      await trx
        .insertInto('deploy_templates')
        .values(toColumns(values) as never)
        .execute();
      const row = await getWhere(ctx, 'uuid', String(values.uuid), trx);
      await insertSteps(ctx, trx, Number(row.get('id')), steps);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(error, values);
    throw error;
  }
  created.assign('steps', steps as never);
  return created.resetChanges();
}

/** Writes the changed fields; changed steps are matched to the stored ones (stepChanges). */
export async function saveDeployTemplate(
  ctx: StoreContext,
  template: DeployTemplateObject,
): Promise<DeployTemplateObject> {
  const uuid = String(template.get('uuid'));
  const values = changesForDb(template, ctx.targets);
  if ('uuid' in values) {
    throw new InvalidParameterError(
      'Cannot overwrite UUID for an existing deploy template.',
      'uuid',
    );
  }
  const steps = values.steps as TemplateStep[] | undefined;
  delete values.steps;
  if (!('updated_at' in values)) values.updated_at = ctx.now();
  try {
    return await inRetriedTransaction(ctx.database, async (trx) => {
      const query = trx.selectFrom('deploy_templates').select('id').where('uuid', '=', uuid);
      const row = await forUpdate(query, ctx.database.caps).executeTakeFirst();
      if (row === undefined) throw new NotFoundError('deploy_template', uuid);
      const id = Number(row.id);
      await trx
        .updateTable('deploy_templates')
        .set(toColumns(values) as never)
        .where('id', '=', id)
        .execute();
      if (steps !== undefined) {
        const current = (await storedSteps(trx, [id])).get(id) ?? [];
        const { deleteIds, insert } = stepChanges(current, steps);
        if (deleteIds.length > 0) {
          await trx.deleteFrom('deploy_template_steps').where('id', 'in', deleteIds).execute();
        }
        await insertSteps(ctx, trx, id, insert);
      }
      return getWhere(ctx, 'id', id, trx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(error, values);
    throw error;
  }
}

/** Removes a template (by id) and its steps. */
export async function destroyDeployTemplate(ctx: StoreContext, id: number): Promise<void> {
  await inRetriedTransaction(ctx.database, async (trx) => {
    await trx.deleteFrom('deploy_template_steps').where('deploy_template_id', '=', id).execute();
    const result = await trx.deleteFrom('deploy_templates').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError('deploy_template', id);
  });
}
