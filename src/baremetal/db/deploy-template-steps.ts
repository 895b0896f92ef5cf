/**
 * A deploy template's steps as rows of `deploy_template_steps`, and the change from one list
 * of steps to another as Ironic's `_update_deploy_template_steps` makes it: steps equal in
 * interface, step, args and priority are kept (their rows untouched), the others deleted or
 * inserted, the new ones in the order of that comparison key.
 */
import { pythonJsonDumps } from '../../python-compat/index.ts';

export interface TemplateStep {
  readonly interface: string;
  readonly step: string;
  readonly args: Record<string, unknown>;
  readonly priority: number | string;
}

/** A stored step: its row id, and the step as read back. */
export interface StoredStep {
  readonly id: number;
  readonly step: TemplateStep;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([key, item]) => [key, sortedKeys(item)]));
}

/** Ironic's `_step_key`: interface, step, the args as sorted JSON, priority. */
function stepKey(step: TemplateStep): [string, string, string, number] {
  return [step.interface, step.step, pythonJsonDumps(sortedKeys(step.args)), Number(step.priority)];
}

function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/** The rows to delete and the steps to insert to turn `current` into `wanted`. */
export function stepChanges(
  current: readonly StoredStep[],
  wanted: readonly TemplateStep[],
): { readonly deleteIds: number[]; readonly insert: TemplateStep[] } {
  const a = [...current].sort((x, y) => compareKeys(stepKey(x.step), stepKey(y.step)));
  const b = [...wanted].sort((x, y) => compareKeys(stepKey(x), stepKey(y)));
  const deleteIds: number[] = [];
  const insert: TemplateStep[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const order = compareKeys(stepKey((a[i] as StoredStep).step), stepKey(b[j] as TemplateStep));
    if (order === 0) {
      i++;
      j++;
    } else if (order < 0) deleteIds.push((a[i++] as StoredStep).id);
    else insert.push(b[j++] as TemplateStep);
  }
  for (; i < a.length; i++) deleteIds.push((a[i] as StoredStep).id);
  for (; j < b.length; j++) insert.push(b[j] as TemplateStep);
  return { deleteIds, insert };
}
