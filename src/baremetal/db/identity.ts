/**
 * How Ironic tells what kind of identifier it was given (oslo's `strutils.is_int_like`,
 * `uuidutils.is_uuid_like`, `netutils.is_valid_mac`), so lookups "by id or uuid" and "by
 * address or identity" take the same path the real service takes.
 */
import { InvalidIdentityError } from './errors.ts';

/** An integer, or a string of one (Python's `str(int(value)) == str(value)`). */
export function isIntLike(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return (
    typeof value === 'string' &&
    /^-?(0|[1-9]\d*)$/.test(value) &&
    Number.isSafeInteger(Number(value))
  );
}

const UUID = /^[0-9a-f]{32}$/;

/** A UUID in any form `uuid.UUID()` reads that prints back the same, hyphens and case aside. */
export function isUuidLike(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const text = value
    .toLowerCase()
    .replace(/^urn:uuid:/, '')
    .replace(/^\{(.*)\}$/, '$1');
  return UUID.test(text.replaceAll('-', '')) && /^[0-9a-f-]+$/.test(text);
}

const MAC = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i;

/** A MAC address of six hex pairs separated by ':' or '-'. */
export function isValidMac(value: unknown): value is string {
  return typeof value === 'string' && MAC.test(value);
}

/** A lookup key for "id or uuid" (Ironic's add_identity_filter); anything else is refused. */
export type Identity = { readonly id: number } | { readonly uuid: string };

export function identityOf(value: string | number): Identity {
  if (isIntLike(value)) return { id: Number(value) };
  if (isUuidLike(value)) return { uuid: value };
  throw new InvalidIdentityError(String(value));
}

/** The stored form of a MAC address: lower case, ':'-separated (the MACAddress field's form). */
export function normalizeMac(address: string): string {
  return address.toLowerCase().replaceAll('-', ':');
}
