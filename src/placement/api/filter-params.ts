/**
 * The provider filters of query strings (`member_of`, `required`, `resources`), parsed and
 * refused in the real service's words. Shared by the provider list and allocation candidates;
 * `suffix` names a request group's parameters (`member_of1`, `required_NIC`).
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike } from '../schemas/validator.ts';
import { badRequest } from './errors.ts';
import { FEATURES } from './features.ts';
import { queryValues } from './query.ts';

export interface AggregateFilter {
  /** Each set: the provider is in at least one of its aggregates; all sets must hold. */
  readonly memberOf: ReadonlySet<string>[];
  /** The provider is in none of these. */
  readonly forbidden: ReadonlySet<string>;
}

export interface TraitFilter {
  /** Each set: the provider has at least one of its traits; all sets must hold. */
  readonly required: ReadonlySet<string>[];
  /** The provider has none of these. */
  readonly forbidden: ReadonlySet<string>;
}

/** One `member_of` value: a uuid, `!uuid`, `in:u1,u2` or `!in:u1,u2`. */
export function parseMemberOfValue(value: string): { required: string[]; forbidden: string[] } {
  if (value.includes(',') && !(value.startsWith('in:') || value.startsWith('!in:'))) {
    throw badRequest(
      "Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword " +
        `using the valid microversion. Got: ${value}`,
    );
  }
  let required: string[] = [];
  let forbidden: string[] = [];
  if (value.startsWith('!in:')) forbidden = value.slice(4).split(',');
  else if (value.startsWith('!')) forbidden = [value.slice(1)];
  else if (value.startsWith('in:')) required = value.slice(3).split(',');
  else required = [value];
  for (const uuid of [...required, ...forbidden]) {
    if (!isUuidLike(uuid)) {
      throw badRequest(
        `Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: ${uuid}`,
      );
    }
  }
  return { required: [...new Set(required)], forbidden: [...new Set(forbidden)] };
}

/** Every `member_of<suffix>` of the request: several from 1.24, forbidden ones from 1.32. */
export function parseMemberOf(request: FastifyRequest, suffix = ''): AggregateFilter {
  const values = queryValues(request, `member_of${suffix}`);
  if (!request.microversion.atLeast(FEATURES.multipleMemberOf) && values.length > 1) {
    throw badRequest(`Multiple member_of${suffix} parameters are not supported`);
  }
  const allowForbidden = request.microversion.atLeast(FEATURES.forbiddenAggregates);
  const memberOf: ReadonlySet<string>[] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseMemberOfValue(value);
    if (parsed.required.length > 0) memberOf.push(new Set(parsed.required));
    if (parsed.forbidden.length > 0) {
      if (!allowForbidden) {
        throw badRequest(
          `Forbidden member_of${suffix} parameters are not supported in the specified microversion`,
        );
      }
      for (const uuid of parsed.forbidden) forbidden.add(uuid);
    }
  }
  return { memberOf, forbidden };
}

/** One `required` value: `T1,!T2` (forbidden from 1.22) or `in:T1,T2` (any of, from 1.39). */
export function parseTraitsValue(
  value: string,
  allowForbidden: boolean,
  allowAnyTraits: boolean,
): TraitFilter {
  if (value.startsWith('in:')) {
    if (!allowAnyTraits) {
      throw badRequest(
        "Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only " +
          `supported since microversion 1.39. Got: ${value}`,
      );
    }
    const anyOf = value
      .slice(3)
      .split(',')
      .map((trait) => trait.trim());
    if (anyOf.some((trait) => trait === '')) {
      throw badRequest(
        "Invalid query string parameters: Expected 'required' parameter value of the form: " +
          `in:HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: ${value}`,
      );
    }
    if (anyOf.some((trait) => trait.startsWith('!'))) {
      throw badRequest(
        "Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not " +
          `support forbidden traits. Got: ${value}`,
      );
    }
    return { required: [new Set(anyOf)], forbidden: new Set() };
  }
  const traits = value.split(',').map((trait) => trait.trim());
  // Any run of leading '!' marks a forbidden trait (the real service strips them all).
  const forbidden = traits.filter((t) => t.startsWith('!')).map((t) => t.replace(/^!+/, ''));
  if ([...forbidden, ...traits].some((trait) => trait === '')) {
    const form = allowForbidden ? 'HW_CPU_X86_VMX,!CUSTOM_MAGIC' : 'HW_CPU_X86_VMX,CUSTOM_MAGIC';
    throw badRequest(
      "Invalid query string parameters: Expected 'required' parameter value of the form: " +
        `${form}. Got an empty trait in: ${value}`,
    );
  }
  if (forbidden.length > 0 && !allowForbidden) {
    throw badRequest(
      "Invalid query string parameters: Expected 'required' parameter value of the form: " +
        `HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: ${value}`,
    );
  }
  return {
    required: traits.filter((t) => !t.startsWith('!')).map((t) => new Set([t])),
    forbidden: new Set(forbidden),
  };
}

/**
 * Every `required<suffix>` of the request. Before 1.39 only the last one counts (as the
 * real service reads it); from 1.39 they are ANDed.
 */
export function parseRequiredTraits(request: FastifyRequest, suffix = ''): TraitFilter {
  const allowForbidden = request.microversion.atLeast(FEATURES.forbiddenTraits);
  const allowAnyTraits = request.microversion.atLeast(FEATURES.anyTraits);
  let values = queryValues(request, `required${suffix}`);
  if (!allowAnyTraits) values = values.slice(-1);
  const required: ReadonlySet<string>[] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseTraitsValue(value, allowForbidden, allowAnyTraits);
    required.push(...parsed.required);
    for (const trait of parsed.forbidden) forbidden.add(trait);
  }
  return { required, forbidden };
}

/** Python's int() of a query value: optional sign, digits, single underscores between them. */
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/** `resources=VCPU:2,MEMORY_MB:1024` as class name → amount (a later class wins). */
export function parseResources(value: string): Map<string, number> {
  const form =
    'Badly formed resources parameter. Expected resources query string parameter in form: ' +
    '?resources=VCPU:2,MEMORY_MB:1024. Got:';
  if (value.trim() === '') throw badRequest(`${form} empty string.`);
  const result = new Map<string, number>();
  for (const part of value.split(',')) {
    const pieces = part.split(':');
    if (pieces.length !== 2) throw badRequest(`${form} ${part}.`);
    const [name = '', amountText = ''] = pieces;
    if (!PY_INT.test(amountText)) {
      throw badRequest(
        `Requested resource ${name} expected positive integer amount. Got: ${amountText}.`,
      );
    }
    const amount = Number(amountText.replace(/_/g, '').trim());
    if (amount < 1) {
      throw badRequest(`Requested resource ${name} requires amount >= 1. Got: ${amount}.`);
    }
    result.set(name, amount);
  }
  return result;
}
