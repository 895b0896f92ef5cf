/**
 * JSON PATCH as the real Ironic applies it (utils.apply_jsonpatch over python-jsonpatch 1.32):
 * `add` of a new top-level attribute is refused, then the operations apply one at a time to a
 * copy, and a failing one is a PatchError naming the operation (its Python repr) and the
 * library's reason, in its words. The document schema (args.patch) has already limited the
 * operations to add, replace and remove on paths of word segments, so pointers hold no `~`
 * escapes; the walk still follows python-jsonpointer's rules, a string counting as a sequence.
 *
 * Why not a JSON patch library: the error texts are part of the contract (clients show them),
 * and a library's own failures would still have to be replayed to find which of the Python
 * texts applies; with three operations on plain paths, the semantics are a few lines.
 */
import { pythonRepr } from '../../python-compat/index.ts';
import { InvalidError } from '../common/errors.ts';
import { ClientSideError } from './errors.ts';

export interface PatchOperation {
  readonly op: 'add' | 'replace' | 'remove';
  readonly path: string;
  readonly value?: unknown;
}

type Json = unknown;
type Part = string | number;

/** A failing operation: jsonpatch's and jsonpointer's exceptions carry these texts. */
class PatchFailure extends Error {}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

const isMapping = (doc: Json): doc is Record<string, Json> =>
  doc !== null && typeof doc === 'object' && !Array.isArray(doc);
/** A Python Sequence: lists, and strings too. */
const isSequence = (doc: Json): doc is Json[] | string =>
  Array.isArray(doc) || typeof doc === 'string';

function pythonTypeName(doc: Json): string {
  if (doc === null || doc === undefined) return 'NoneType';
  if (typeof doc === 'boolean') return 'bool';
  if (typeof doc === 'number') return Number.isInteger(doc) ? 'int' : 'float';
  return typeof doc;
}

/** JsonPointer.get_part. */
function getPart(doc: Json, part: string): Part {
  if (isMapping(doc)) return part;
  if (isSequence(doc)) {
    if (part === '-') return part;
    if (!ARRAY_INDEX.test(part)) throw new PatchFailure(`'${part}' is not a valid sequence index`);
    return Number(part);
  }
  throw new PatchFailure(
    `Document '<class '${pythonTypeName(doc)}'>' does not support indexing, must be mapping/sequence or support __getitem__`,
  );
}

/** JsonPointer.walk: one step down. */
function walk(doc: Json, raw: string): Json {
  const part = getPart(doc, raw);
  if (isSequence(doc)) {
    if (part === '-') throw new PatchFailure(`index '-' is out of bounds`);
    const index = part as number;
    if (index >= doc.length) throw new PatchFailure(`index '${index}' is out of bounds`);
    return doc[index];
  }
  const mapping = doc as Record<string, Json>;
  if (!Object.hasOwn(mapping, part as string)) {
    throw new PatchFailure(`member '${part}' not found in ${pythonRepr(doc)}`);
  }
  return mapping[part as string];
}

/** JsonPointer.to_last: the parent of the pointed value and the last part. */
function toLast(doc: Json, path: string): [Json, Part] {
  const parts = path.split('/').slice(1);
  let current = doc;
  for (const part of parts.slice(0, -1)) current = walk(current, part);
  return [current, getPart(current, parts[parts.length - 1] as string)];
}

function operationValue(operation: PatchOperation): Json {
  if (!Object.hasOwn(operation, 'value')) {
    throw new PatchFailure("The operation does not contain a 'value' member");
  }
  return structuredClone(operation.value);
}

function apply(doc: Json, operation: PatchOperation): void {
  const { op, path } = operation;
  if (op === 'remove') {
    const [parent, part] = toLast(doc, path);
    if (Array.isArray(parent) && typeof part === 'number' && part < parent.length) {
      parent.splice(part, 1);
      return;
    }
    if (isMapping(parent) && Object.hasOwn(parent, part as string)) {
      delete parent[part as string];
      return;
    }
    if (typeof parent === 'string' && typeof part === 'number' && part < parent.length) {
      throw new PatchFailure("'str' object doesn't support item deletion");
    }
    throw new PatchFailure(`can't remove a non-existent object '${part}'`);
  }
  const value = operationValue(operation);
  const [parent, part] = toLast(doc, path);
  if (op === 'add') {
    if (Array.isArray(parent)) {
      if (part === '-') parent.push(value);
      else if ((part as number) > parent.length)
        throw new PatchFailure("can't insert outside of list");
      else parent.splice(part as number, 0, value);
    } else if (isMapping(parent)) parent[part as string] = value;
    else throw new PatchFailure(`unable to fully resolve json pointer ${path}, part ${part}`);
    return;
  }
  if (part === '-') {
    throw new PatchFailure("'path' with '-' can't be applied to 'replace' operation");
  }
  if (Array.isArray(parent)) {
    if ((part as number) >= parent.length) throw new PatchFailure("can't replace outside of list");
    parent[part as number] = value;
  } else if (isMapping(parent)) {
    if (!Object.hasOwn(parent, part as string)) {
      throw new PatchFailure(`can't replace a non-existent object '${part}'`);
    }
    parent[part as string] = value;
  } else {
    throw new PatchFailure(`unable to fully resolve json pointer ${path}, part ${part}`);
  }
}

/** Applies a patch to a copy of `doc`; the patched copy, or a 400 as the real one words it. */
export function applyJsonPatch(
  doc: Readonly<Record<string, Json>>,
  patch: readonly PatchOperation[],
): Record<string, Json> {
  for (const operation of patch) {
    if (operation.op === 'add' && operation.path.split('/').length === 2) {
      if (!Object.hasOwn(doc, operation.path.replace(/^\/+/, ''))) {
        throw new ClientSideError(
          `Adding a new attribute (${operation.path}) to the root of the resource is not allowed`,
        );
      }
    }
  }
  const patched = structuredClone(doc) as Record<string, Json>;
  for (const operation of patch) {
    try {
      apply(patched, operation);
    } catch (error) {
      if (!(error instanceof PatchFailure)) throw error;
      throw new InvalidError(
        `Couldn't apply patch '${pythonRepr(operation)}'. Reason: ${error.message}`,
      );
    }
  }
  return patched;
}

/** The values the patch gives a path (not removed), in order (get_patch_values). */
export function patchValues(patch: readonly PatchOperation[], path: string): Json[] {
  return patch.filter((p) => p.path === path && p.op !== 'remove').map((p) => p.value);
}

/**
 * patch_validate_allowed_fields: every operation must touch an allowed top-level field; the
 * fields touched.
 */
export function allowedPatchFields(
  patch: readonly PatchOperation[],
  allowed: readonly string[],
): Set<string> {
  const fields = new Set<string>();
  for (const operation of patch) {
    const field = operation.path.split('/')[1] ?? '';
    if (!allowed.includes(field)) {
      throw new InvalidError(
        `Cannot patch ${operation.path}. Only the following can be updated: ${allowed.join(', ')}`,
      );
    }
    fields.add(field);
  }
  return fields;
}
