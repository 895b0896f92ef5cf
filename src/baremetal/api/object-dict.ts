/**
 * A versioned object as the real API shows it (utils.object_to_dict): `uuid`, `created_at`,
 * `updated_at`, then the fields asked for; a null dictionary shows as `{}`, a null list of
 * strings as `[]`, a timestamp as Python's isoformat.
 */
import type { FieldSpec, VersionedObject } from '../../objects/index.ts';

type AnyObject = VersionedObject;

/** Python's isoformat of a timestamp value (OffsetDateTime or Date). */
function isoformat(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof (value as { isoformat?: unknown }).isoformat === 'function') {
    return (value as { isoformat(): string }).isoformat();
  }
  return value instanceof Date ? value.toISOString() : value;
}

/** One field's shown value. */
export function shownValue(obj: AnyObject, field: string): unknown {
  return shownFieldValue(obj.type.fields[field], obj.peek(field as never) as unknown);
}

/** The shown form of a value of a field of this spec (none: a field the object lacks). */
export function shownFieldValue(spec: FieldSpec | undefined, value: unknown): unknown {
  const kind = spec?.type.kind;
  if (kind === 'DateTime') return isoformat(value);
  if (value !== null && value !== undefined) return value;
  if (kind === 'FlexibleDict') return {};
  if (kind === 'List' && spec?.type.detail === 'String') return [];
  return null;
}

export function objectToDict(
  obj: AnyObject,
  fields: readonly string[],
  options: { readonly timestamps?: boolean; readonly uuid?: boolean } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const all = [
    ...(options.uuid === false ? [] : ['uuid']),
    ...(options.timestamps === false ? [] : ['created_at', 'updated_at']),
    ...fields,
  ];
  for (const field of all) out[field] = shownValue(obj, field);
  return out;
}

/** sanitize_dict: only the fields asked for (and `links`); all when `fields` is undefined. */
export function keepFields(
  body: Record<string, unknown>,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  if (fields === undefined) return body;
  for (const key of Object.keys(body)) {
    if (key !== 'links' && !fields.includes(key)) delete body[key];
  }
  return body;
}

/** check_for_invalid_fields: every field asked for must be one the body has. */
export function invalidFields(fields: readonly string[], body: Record<string, unknown>): string[] {
  return [...new Set(fields)].filter((field) => !Object.hasOwn(body, field));
}

/** Ironic's as_dict: every field set on the object, timestamps as isoformat. */
export function asDict(obj: AnyObject, skip: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of obj.type.fieldNames) {
    if (skip.includes(field) || !obj.isSet(field as never)) continue;
    const value = obj.peek(field as never) as unknown;
    out[field] = obj.type.fields[field]?.type.kind === 'DateTime' ? isoformat(value) : value;
  }
  return out;
}

/**
 * patch_update_changed_fields: each field given a value different from the object's is set
 * (and so sent as a change); equal ones are left untouched.
 */
export function updateChangedFields(
  obj: AnyObject,
  values: Readonly<Record<string, unknown>>,
): void {
  for (const [field, value] of Object.entries(values)) {
    const current = obj.isSet(field as never) ? (obj.peek(field as never) as unknown) : undefined;
    if (
      current === undefined ||
      JSON.stringify(current ?? null) !== JSON.stringify(value ?? null)
    ) {
      obj.assign(field, value);
    }
  }
}
