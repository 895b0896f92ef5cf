/**
 * Request parameters as the real Ironic hands them to a controller (pecan's argument binding
 * and `ironic.common.args`): query parameters, plus the keys of a JSON object body when the
 * content type is JSON (a repeated key becomes a list); one argument may take the whole body
 * (`method.body`). Every handler declares its parameters in the real signature's order, each
 * with the real validator; the binding answers the real refusals, in the real words:
 * `Unexpected arguments: x, y`, `Missing mandatory parameter: x`, `Expected UUID for x: …`,
 * `Expected an integer for x: …`, `Invalid x: Unrecognized value …`.
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike, pythonInt, pythonRepr, pythonStrip } from '../../python-compat/index.ts';
import { InvalidParameterError, MissingParameterError } from '../common/errors.ts';
import { bodyText, readJsonBody } from './request-body.ts';

/** Python's str() of a parameter value, as `%s` shows it in messages. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Validates and converts one argument (name, value): the value to use, or an error thrown. */
export type Validator = (name: string, value: unknown) => unknown;

export interface ParamSpec {
  readonly validate?: Validator;
  /** Mandatory: absent is "Missing mandatory parameter". */
  readonly required?: boolean;
}

const TRUE_STRINGS = ['1', 't', 'true', 'on', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'f', 'false', 'off', 'n', 'no'];
const ACCEPTABLE = [...TRUE_STRINGS, ...FALSE_STRINGS]
  .sort()
  .map((s) => `'${s}'`)
  .join(', ');

/** oslo's bool_from_string(value, strict=True), or undefined where it raises. */
export function strictBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const lowered = pythonStrip(pyStr(value)).toLowerCase();
  if (TRUE_STRINGS.includes(lowered)) return true;
  if (FALSE_STRINGS.includes(lowered)) return false;
  return undefined;
}

const LOGICAL_NAME = /^[A-Z0-9\-._~]+$/iu;
const HOSTNAME_SAFE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9\-_]{0,62}[a-z0-9])*\.?$/;

/** Ironic's is_valid_logical_name: RFC 3986 unreserved characters, at most 255. */
export function isValidLogicalName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && LOGICAL_NAME.test(value);
}

/** Ironic's is_hostname_safe: the node name rule before 1.10. */
export function isHostnameSafe(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && HOSTNAME_SAFE.test(value);
}

/** The validators of ironic.common.args, with their messages. */
export const args = {
  string(name: string, value: unknown): string | undefined {
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') {
      throw new InvalidParameterError(`Expected string for ${name}: ${pyStr(value)}`, name);
    }
    return value;
  },
  boolean(name: string, value: unknown): boolean | undefined {
    if (value === null || value === undefined) return undefined;
    const result = strictBool(value);
    if (result === undefined) {
      throw new InvalidParameterError(
        `Invalid ${name}: Unrecognized value '${pyStr(value)}', acceptable values are: ${ACCEPTABLE}`,
        name,
      );
    }
    return result;
  },
  uuid(name: string, value: unknown): string | undefined {
    if (value === null || value === undefined) return undefined;
    if (!isUuidLike(value)) {
      throw new InvalidParameterError(`Expected UUID for ${name}: ${pyStr(value)}`, name);
    }
    return value as string;
  },
  uuidOrName(name: string, value: unknown): string | undefined {
    if (value === null || value === undefined) return undefined;
    if (!isValidLogicalName(value) && !isUuidLike(value)) {
      throw new InvalidParameterError(`Expected UUID or name for ${name}: ${pyStr(value)}`, name);
    }
    return value as string;
  },
  integer(name: string, value: unknown): number | undefined {
    if (value === null || value === undefined) return undefined;
    const number = pythonIntOf(value);
    if (number === undefined) {
      throw new InvalidParameterError(`Expected an integer for ${name}: ${pyStr(value)}`, name);
    }
    return number;
  },
  /** A comma-separated list: items stripped, lower-cased, empty ones and repeats dropped. */
  stringList(name: string, value: unknown): string[] | undefined {
    const text = args.string(name, value);
    if (text === undefined) return undefined;
    const items: string[] = [];
    for (const item of text.split(',')) {
      const normal = pythonStrip(item).toLowerCase();
      if (normal !== '' && !items.includes(normal)) items.push(normal);
    }
    return items;
  },
  /** `args.types(...)`: the value must be one of the JSON kinds (Python types) named. */
  types(...kinds: readonly ('dict' | 'list' | 'str' | 'NoneType')[]): Validator {
    const shown = kinds.map((kind) => `<class '${kind}'>`).join(', ');
    return (name, value) => {
      const kind =
        value === null || value === undefined
          ? 'NoneType'
          : typeof value === 'string'
            ? 'str'
            : Array.isArray(value)
              ? 'list'
              : typeof value === 'object'
                ? 'dict'
                : undefined;
      if (kind === undefined || !kinds.includes(kind)) {
        throw new InvalidParameterError(
          `Expected types ${shown} for ${name}: ${pyStr(value)}`,
          name,
        );
      }
      return value;
    };
  },
  /** Every validator in turn, each given the previous one's result. */
  and(...validators: readonly Validator[]): Validator {
    return (name, value) => validators.reduce((current, check) => check(name, current), value);
  },
};

/** Python's int() of a JSON value or a query string; undefined where it raises. */
function pythonIntOf(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? Math.trunc(value) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const parsed = pythonInt(value);
  if (parsed === undefined) return undefined;
  // Beyond a safe integer the value means no count or limit anyone asks for: clamp it.
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  return Number(parsed > max ? max : parsed < -max ? -max : parsed);
}

export type Params = Record<string, unknown>;

function addParam(params: Params, key: string, value: unknown): void {
  if (!Object.hasOwn(params, key)) params[key] = value;
  else {
    const current = params[key];
    params[key] = Array.isArray(current) ? [...current, value] : [current, value];
  }
}

const JSON_TYPES = new Set(['application/json', 'application/javascript']);

/** The request's media type, lower-cased, without parameters. */
export function mediaType(request: FastifyRequest): string {
  const header = request.headers['content-type'];
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * The parameters pecan collects: the query, plus (except for GET) the keys of a JSON object
 * body or the fields of a form body.
 */
export function requestParams(request: FastifyRequest): Params {
  const params: Params = {};
  const query = request.query as Record<string, string | string[]>;
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) addParam(params, key, item);
  }
  if (request.method === 'GET' || request.method === 'HEAD') return params;
  const type = mediaType(request);
  if (JSON_TYPES.has(type)) {
    const body = readJsonBody(request);
    if ('value' in body && isDict(body.value)) {
      for (const [key, value] of Object.entries(body.value)) addParam(params, key, value);
    }
  } else if (type === 'application/x-www-form-urlencoded') {
    const text = bodyText(request);
    for (const [key, value] of new URLSearchParams(text)) addParam(params, key, value);
  }
  return params;
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Binds a handler's arguments as pecan and `args.validate` do: names that the handler does not
 * take are "Unexpected arguments", then each argument in order is validated or found missing.
 * `bodyArg` names the argument that takes the whole body (`method.body`): it is read from the
 * body (empty: `{}`), and the keys of a JSON object body are not parameters of their own.
 */
export function bindParams(
  request: FastifyRequest,
  specs: Readonly<Record<string, ParamSpec>>,
  options: { readonly bodyArg?: string; readonly params?: Params } = {},
): Params {
  const params = { ...(options.params ?? requestParams(request)) };
  const { bodyArg } = options;
  if (bodyArg !== undefined) {
    const body = readJsonBody(request);
    if ('error' in body) throw new InvalidParameterError(body.error);
    const data = body.value === undefined ? {} : body.value;
    if (isDict(data)) for (const key of Object.keys(data)) delete params[key];
    params[bodyArg] = data;
  }
  const unexpected = Object.keys(params).filter((key) => !Object.hasOwn(specs, key));
  if (unexpected.length > 0) {
    throw new InvalidParameterError(`Unexpected arguments: ${unexpected.join(', ')}`);
  }
  const bound: Params = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (Object.hasOwn(params, name)) {
      bound[name] = spec.validate ? spec.validate(name, params[name]) : params[name];
    } else if (spec.required) {
      throw new MissingParameterError(`Missing mandatory parameter: ${name}`);
    }
  }
  return bound;
}
