/**
 * Queries a store repeats with other values (a node by its UUID), compiled once per database.
 *
 * Kysely builds and compiles a query on every call: for a select naming 58 columns that is
 * about 0.2 ms, as much as running it. A template is built once with a marker in place of
 * each value, compiled, and then run with the values put where the markers were.
 *
 * The values must be strings or numbers: they go to the driver as they are, past the plugins
 * that would convert a Date or a boolean at compile time (sqlite-values-plugin.ts).
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** A value put in a template's marked places. */
export type TemplateValue = string | number;

interface Template {
  readonly compiled: CompiledQuery;
  /** For each parameter of the compiled query, which value fills it (-1: kept as compiled). */
  readonly slots: readonly number[];
}

// biome-ignore lint/suspicious/noExplicitAny: templates serve every database's tables
type AnyKysely = Kysely<any>;

const templates = new WeakMap<AnyKysely, Map<string, Template>>();
/** A bound on the templates of one database (keys are fixed strings; it guards misuse). */
const MAX_TEMPLATES = 500;

/** The markers given to `build`: objects no plugin converts, found again by identity. */
function markers(count: number): object[] {
  return Array.from({ length: count }, () => ({}));
}

function compileTemplate<R>(build: (...values: never[]) => Compilable<R>, count: number): Template {
  const marks = markers(count);
  const compiled = build(...(marks as never[])).compile();
  const slots = compiled.parameters.map((parameter) => marks.indexOf(parameter as object));
  for (let i = 0; i < count; i++) {
    if (!slots.includes(i)) throw new TypeError(`query template: value ${i} is not a parameter`);
  }
  return { compiled, slots };
}

/**
 * Runs the query `build` makes of `values`, compiled once for `db` under `key` (one key, one
 * query shape: the same `build` each time, and `values` always as many).
 */
export async function runTemplate<R>(
  db: AnyKysely,
  key: string,
  build: (...values: never[]) => Compilable<R>,
  values: readonly TemplateValue[],
): Promise<R[]> {
  let byKey = templates.get(db);
  if (byKey === undefined) {
    byKey = new Map();
    templates.set(db, byKey);
  }
  let template = byKey.get(key);
  if (template === undefined) {
    template = compileTemplate(build, values.length);
    if (byKey.size >= MAX_TEMPLATES) byKey.clear();
    byKey.set(key, template);
  }
  const { compiled, slots } = template;
  const parameters = compiled.parameters.map((parameter, i) => {
    const slot = slots[i] as number;
    return slot < 0 ? parameter : values[slot];
  });
  const result = await db.executeQuery<R>({ ...compiled, parameters });
  return result.rows;
}
