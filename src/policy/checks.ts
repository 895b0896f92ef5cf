/**
 * The check tree of oslo.policy's language and its evaluation. Pure: a check reads the
 * target (what is acted on), the credentials (who acts) and the other rules by name.
 */

/** Credentials as oslo.policy sees them: roles already expanded by implication. */
export interface PolicyCredentials {
  readonly user_id: string | null;
  /** null for a system-scoped request, which carries no project. */
  readonly project_id: string | null;
  readonly roles: readonly string[];
  /** `all` for a system-scoped request, else null. */
  readonly system_scope: string | null;
  readonly [key: string]: unknown;
}

/** What an action is done to, as the rules read it (`project_id`, `user_id`…). */
export type PolicyTarget = Readonly<Record<string, unknown>>;

export type Check =
  | { readonly kind: 'true' }
  | { readonly kind: 'false' }
  | { readonly kind: 'not'; readonly check: Check }
  | { readonly kind: 'and'; readonly checks: readonly Check[] }
  | { readonly kind: 'or'; readonly checks: readonly Check[] }
  | { readonly kind: 'rule'; readonly name: string }
  | { readonly kind: 'role'; readonly match: string }
  /** `key:match`: a credential (dotted path) or a Python literal compared with `match`. */
  | { readonly kind: 'generic'; readonly key: string; readonly match: string };

export interface EvaluationContext {
  readonly target: PolicyTarget;
  readonly credentials: PolicyCredentials;
  /** Another rule by name (for `rule:name`); undefined when no such rule exists. */
  readonly rule: (name: string) => Check | undefined;
}

/** Python's str() of a value, which is what oslo.policy compares matches against. */
function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/**
 * `match % target` as Python formats it for `%(name)s` and `%%`; undefined when the
 * target lacks a named key (oslo.policy then fails the check).
 */
export function interpolate(match: string, target: PolicyTarget): string | undefined {
  let missing = false;
  // Any name up to the `)`, as Python's `%` formatting reads it: Ironic's are dotted (`node.owner`).
  const result = match.replace(/%\(([^)]*)\)s|%%/g, (whole, name: string | undefined) => {
    if (name === undefined) return '%';
    if (!Object.hasOwn(target, name)) {
      missing = true;
      return whole;
    }
    return pythonStr(target[name]);
  });
  return missing ? undefined : result;
}

/** A Python literal on the left of `:` (`'text'`, `"text"`, numbers, True/False/None). */
function literalOf(key: string): string | undefined {
  if (key.length >= 2 && (key[0] === "'" || key[0] === '"') && key.at(-1) === key[0]) {
    return key.slice(1, -1);
  }
  if (key === 'True' || key === 'False' || key === 'None') return key;
  if (/^[-+]?\d+$/.test(key)) return String(Number.parseInt(key, 10));
  if (/^[-+]?(\d+\.\d*|\.\d+)$/.test(key)) return String(Number.parseFloat(key));
  return undefined;
}

/** Walks a dotted credential path; lists match when any element matches. */
function findInCredentials(value: unknown, path: readonly string[], match: string): boolean {
  if (path.length === 0) return match === pythonStr(value);
  if (value === null || typeof value !== 'object') return false;
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(value, head)) return false;
  const next = (value as Record<string, unknown>)[head];
  if (Array.isArray(next)) return next.some((item) => findInCredentials(item, rest, match));
  return findInCredentials(next, rest, match);
}

export function evaluate(check: Check, context: EvaluationContext): boolean {
  switch (check.kind) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'not':
      return !evaluate(check.check, context);
    case 'and':
      return check.checks.every((inner) => evaluate(inner, context));
    case 'or':
      return check.checks.some((inner) => evaluate(inner, context));
    case 'rule': {
      const rule = context.rule(check.name);
      return rule !== undefined && evaluate(rule, context);
    }
    case 'role': {
      const role = interpolate(check.match, context.target);
      if (role === undefined) return false;
      const wanted = role.toLowerCase();
      return context.credentials.roles.some((held) => held.toLowerCase() === wanted);
    }
    case 'generic': {
      const match = interpolate(check.match, context.target);
      if (match === undefined) return false;
      const literal = literalOf(check.key);
      if (literal !== undefined) return match === literal;
      return findInCredentials(context.credentials, check.key.split('.'), match);
    }
  }
}
