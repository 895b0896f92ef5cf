/**
 * Which validation error the real service reports, and in which words. Ajv decides whether a
 * document is valid; when it is not, this walks the schema as Python's jsonschema 4.10 does
 * (keywords in the schema's own order, draft 2020-12 semantics for the keywords Placement's
 * schemas use; others, such as oneOf, are not explained here), collects every error, and picks the one jsonschema's `best_match` picks
 * (the shallowest in the document; among equals the first met, preferring errors whose
 * instance does not even have the schema's type).
 */
import { excerpt } from './excerpt.ts';
import { pythonPformat, pythonRepr } from './python-repr.ts';

export type JsonSchema = Readonly<Record<string, unknown>>;
type Key = string | number;

export interface SchemaError {
  readonly message: string;
  readonly keyword: string;
  /** Instance path (relative to where the enclosing anyOf/oneOf was, for their context). */
  readonly path: readonly Key[];
  /** Schema path, the keyword last. */
  readonly schemaPath: readonly Key[];
  /** The (sub)schema that holds the keyword, and the instance it looked at. */
  readonly schema: JsonSchema;
  readonly instance: unknown;
  readonly context: readonly SchemaError[];
}

export type FormatCheck = (format: string, value: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

/** Python's `==` on JSON values (True == 1, 1 == 1.0, dicts by content). */
function pyEqual(a: unknown, b: unknown): boolean {
  const n = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  if (typeof n(a) === 'number' && typeof n(b) === 'number') return n(a) === n(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => k in b && pyEqual(a[k], b[k]))
    );
  }
  return a === b;
}

/** Python's len() of a string, without spreading it into an array (it may be megabytes). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * A key equal for values Python's `==` finds equal (True == 1 == 1.0, dicts by content), so
 * uniqueness is checked in linear time, not by comparing every pair.
 */
function equalityKey(value: unknown): string {
  if (typeof value === 'boolean') return `n${Number(value)}`;
  if (typeof value === 'number') return `n${value}`;
  if (typeof value === 'string') return `s${value}`;
  if (value === null || value === undefined) return 'z';
  if (Array.isArray(value)) return `a[${value.map(equalityKey).join(',')}]`;
  const entries = Object.keys(value as object)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${equalityKey((value as Record<string, unknown>)[k])}`);
  return `o{${entries.join(',')}}`;
}

function hasDuplicates(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = equalityKey(item);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

const search = (pattern: string, text: string) => new RegExp(pattern, 'u').test(text);
const pySorted = (items: readonly string[]) =>
  [...items].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));

interface Raw {
  message: string;
  keyword?: string;
  path: Key[];
  schemaPath: Key[];
  schema?: JsonSchema;
  instance?: unknown;
  context: SchemaError[];
}

/** Every error of `instance` against `schema`, in jsonschema's order. */
export function iterErrors(
  schema: JsonSchema,
  instance: unknown,
  format: FormatCheck,
): SchemaError[] {
  return walk(schema, instance, format) as SchemaError[];
}

function walk(schema: JsonSchema, instance: unknown, format: FormatCheck): Raw[] {
  const out: Raw[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    for (const error of keywordErrors(keyword, value, schema, instance, format)) {
      // As jsonschema's `_set`: the innermost keyword and schema win.
      error.keyword ??= keyword;
      error.schema ??= schema;
      if (!('instance' in error)) error.instance = instance;
      error.schemaPath.unshift(keyword);
      out.push(error);
    }
  }
  return out;
}

function descend(
  schema: unknown,
  instance: unknown,
  format: FormatCheck,
  path?: Key,
  schemaPath?: Key,
): Raw[] {
  if (!isObject(schema)) return [];
  const errors = walk(schema, instance, format);
  for (const error of errors) {
    if (path !== undefined) error.path.unshift(path);
    if (schemaPath !== undefined) error.schemaPath.unshift(schemaPath);
  }
  return errors;
}

const fail = (message: string): Raw => ({ message, path: [], schemaPath: [], context: [] });

function keywordErrors(
  keyword: string,
  value: unknown,
  schema: JsonSchema,
  instance: unknown,
  format: FormatCheck,
): Raw[] {
  // Input is echoed as a bounded excerpt (excerpt.ts); the schema's own values are short.
  const r = (v: unknown) => pythonRepr(excerpt(v));
  const obj = isObject(instance) ? instance : undefined;
  switch (keyword) {
    case 'type': {
      const types = Array.isArray(value) ? (value as string[]) : [value as string];
      if (types.some((t) => isType(instance, t))) return [];
      return [fail(`${r(instance)} is not of type ${types.map((t) => r(t)).join(', ')}`)];
    }
    case 'properties':
      if (obj === undefined) return [];
      return Object.entries(value as Record<string, unknown>).flatMap(([name, sub]) =>
        name in obj ? descend(sub, obj[name], format, name, name) : [],
      );
    case 'patternProperties':
      if (obj === undefined) return [];
      return Object.entries(value as Record<string, unknown>).flatMap(([pattern, sub]) =>
        Object.keys(obj)
          .filter((k) => search(pattern, k))
          .flatMap((k) => descend(sub, obj[k], format, k, pattern)),
      );
    case 'additionalProperties': {
      if (obj === undefined) return [];
      const known = Object.keys((schema.properties as object | undefined) ?? {});
      const patterns = Object.keys((schema.patternProperties as object | undefined) ?? {});
      const extras = Object.keys(obj).filter(
        (k) => !known.includes(k) && !(patterns.length > 0 && search(patterns.join('|'), k)),
      );
      if (isObject(value)) return extras.flatMap((k) => descend(value, obj[k], format, k));
      if (value !== false || extras.length === 0) return [];
      const joined = pySorted(extras)
        .map((e) => r(e))
        .join(', ');
      if ('patternProperties' in schema) {
        const verb = extras.length === 1 ? 'does' : 'do';
        const regexes = pySorted(patterns)
          .map((p) => r(p))
          .join(', ');
        return [fail(`${joined} ${verb} not match any of the regexes: ${regexes}`)];
      }
      const verb = extras.length === 1 ? 'was' : 'were';
      return [fail(`Additional properties are not allowed (${joined} ${verb} unexpected)`)];
    }
    case 'dependencies':
      // Draft 4–7: a property present needs the properties listed (or a subschema to hold).
      if (obj === undefined) return [];
      return Object.entries(value as Record<string, unknown>).flatMap(([name, dependency]) => {
        if (!(name in obj)) return [];
        if (!Array.isArray(dependency))
          return descend(dependency, instance, format, undefined, name);
        return (dependency as string[])
          .filter((each) => !(each in obj))
          .map((each) => fail(`${r(each)} is a dependency of ${r(name)}`));
      });
    case 'required':
      if (obj === undefined) return [];
      return (value as string[])
        .filter((name) => !(name in obj))
        .map((name) => fail(`${r(name)} is a required property`));
    case 'items':
      if (!Array.isArray(instance)) return [];
      return instance.flatMap((item, i) => descend(value, item, format, i));
    case 'minItems':
      return Array.isArray(instance) && instance.length < (value as number)
        ? [fail(`${r(instance)} is too short`)]
        : [];
    case 'maxItems':
      return Array.isArray(instance) && instance.length > (value as number)
        ? [fail(`${r(instance)} is too long`)]
        : [];
    case 'uniqueItems':
      return value === true && Array.isArray(instance) && hasDuplicates(instance)
        ? [fail(`${r(instance)} has non-unique elements`)]
        : [];
    case 'minProperties':
      return obj !== undefined && Object.keys(obj).length < (value as number)
        ? [fail(`${r(instance)} does not have enough properties`)]
        : [];
    case 'maxProperties':
      return obj !== undefined && Object.keys(obj).length > (value as number)
        ? [fail(`${r(instance)} has too many properties`)]
        : [];
    case 'minimum': {
      // Draft 3/4: a boolean `exclusiveMinimum` beside it makes the bound exclusive.
      if (typeof instance !== 'number') return [];
      if (schema.exclusiveMinimum === true) {
        return instance <= (value as number)
          ? [fail(`${r(instance)} is less than or equal to the minimum of ${r(value)}`)]
          : [];
      }
      return instance < (value as number)
        ? [fail(`${r(instance)} is less than the minimum of ${r(value)}`)]
        : [];
    }
    case 'maximum':
      return typeof instance === 'number' && instance > (value as number)
        ? [fail(`${r(instance)} is greater than the maximum of ${r(value)}`)]
        : [];
    case 'exclusiveMinimum':
      // Draft 3/4's boolean form is `minimum`'s modifier, no check of its own.
      return typeof instance === 'number' &&
        typeof value === 'number' &&
        instance <= (value as number)
        ? [fail(`${r(instance)} is less than or equal to the minimum of ${r(value)}`)]
        : [];
    case 'exclusiveMaximum':
      return typeof instance === 'number' && instance >= (value as number)
        ? [fail(`${r(instance)} is greater than or equal to the maximum of ${r(value)}`)]
        : [];
    case 'minLength':
      return typeof instance === 'string' && codePoints(instance) < (value as number)
        ? [fail(`${r(instance)} is too short`)]
        : [];
    case 'maxLength':
      return typeof instance === 'string' && codePoints(instance) > (value as number)
        ? [fail(`${r(instance)} is too long`)]
        : [];
    case 'pattern':
      return typeof instance === 'string' && !search(value as string, instance)
        ? [fail(`${r(instance)} does not match ${r(value)}`)]
        : [];
    case 'format':
      return format(value as string, instance) ? [] : [fail(`${r(instance)} is not a ${r(value)}`)];
    case 'enum':
      return (value as unknown[]).some(
        (each) =>
          pyEqual(instance, each) &&
          // jsonschema keeps True apart from 1 and False from 0 in enums.
          (typeof instance === 'boolean') === (typeof each === 'boolean'),
      )
        ? []
        : [fail(`${r(instance)} is not one of ${r(value)}`)];
    case 'const':
      return pyEqual(instance, value) ? [] : [fail(`${r(value)} was expected`)];
    case 'anyOf': {
      const all: Raw[] = [];
      for (const [i, sub] of (value as unknown[]).entries()) {
        const errs = descend(sub, instance, format, undefined, i);
        if (errs.length === 0) return [];
        all.push(...errs);
      }
      const error = fail(`${r(instance)} is not valid under any of the given schemas`);
      error.context = all as SchemaError[];
      return [error];
    }
    case 'allOf':
      return (value as unknown[]).flatMap((sub, i) => descend(sub, instance, format, undefined, i));
    default:
      return [];
  }
}

type Relevance = readonly [number, boolean, boolean];

function relevance(error: SchemaError): Relevance {
  const type = error.schema.type;
  const matchesType =
    type !== undefined &&
    (Array.isArray(type) ? type : [type]).some((t) => isType(error.instance, t as string));
  return [-error.path.length, error.keyword !== 'anyOf', !matchesType];
}

function compare(a: Relevance, b: Relevance): number {
  for (let i = 0; i < a.length; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (x !== y) return x - y;
  }
  return 0;
}

/** jsonschema's best_match: the most relevant error, then down into anyOf/oneOf context. */
export function bestMatch(errors: readonly SchemaError[]): SchemaError | undefined {
  let best = errors[0];
  if (best === undefined) return undefined;
  for (const error of errors.slice(1)) {
    if (compare(relevance(error), relevance(best)) > 0) best = error;
  }
  while (best.context.length > 0) {
    const ranked = [...best.context].sort((a, b) => compare(relevance(a), relevance(b)));
    const [first, second] = ranked as [SchemaError, SchemaError | undefined];
    if (second !== undefined && compare(relevance(first), relevance(second)) === 0) return best;
    best = first;
  }
  return best;
}

function pythonIndex(keys: readonly Key[]): string {
  return keys.map((k) => `[${r(k)}]`).join('');
}
const r = (v: unknown) => pythonRepr(excerpt(v));

const indented = (value: unknown) =>
  `    ${pythonPformat(excerpt(value)).replaceAll('\n', '\n    ')}`;

/** str() of a jsonschema ValidationError: message, failing keyword and schema, instance. */
export function errorText(error: SchemaError): string {
  return [
    error.message,
    '',
    `Failed validating ${r(error.keyword)} in schema${pythonIndex(error.schemaPath.slice(0, -1))}:`,
    indented(error.schema),
    '',
    `On instance${pythonIndex(error.path)}:`,
    indented(error.instance),
  ].join('\n');
}
