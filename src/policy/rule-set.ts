/**
 * The enforcer proper, as oslo.policy behaves for the toolkit's services: a service's registered
 * defaults, a policy file's overrides, and the two switches.
 * - `enforce_new_defaults` off: a default whose check string replaced a deprecated one
 *   passes on either (unless the policy file overrides the rule).
 * - `enforce_scope` off: a token of the wrong scope is only warned about (here: nothing);
 *   on: refused before the check runs.
 * Pure: the overrides come already read.
 */
import { PolicySyntaxError, parseRule } from './check-parser.ts';
import { type Check, evaluate, type PolicyCredentials, type PolicyTarget } from './checks.ts';
import { policyCredentials } from './credentials.ts';
import {
  type Credentials,
  type PolicyEnforcer,
  PolicyNotRegisteredError,
  PolicyScopeError,
} from './enforcer.ts';
import type { RuleDefault } from './rule-default.ts';

/** What a RuleSet is made of: the `[oslo_policy]` switches, the overrides and the defaults. */
export interface RuleSetOptions {
  readonly enforceScope: boolean;
  readonly enforceNewDefaults: boolean;
  /** Rule name → check string (or legacy list), from the policy file. */
  readonly overrides?: Readonly<Record<string, unknown>>;
  /** The service's registered rules and their defaults. */
  readonly defaults: readonly RuleDefault[];
}

function tokenScopeOf(credentials: PolicyCredentials): string {
  if (credentials.system) return 'system';
  if (credentials.domain_id) return 'domain';
  return 'project';
}

/** The registered rules with the policy file's overrides: the enforcer. */
export class RuleSet implements PolicyEnforcer {
  readonly #rules = new Map<string, Check>();
  readonly #registered = new Map<string, RuleDefault>();
  readonly #enforceScope: boolean;

  /** Throws PolicySyntaxError (naming the rule) when a check string cannot be parsed. */
  constructor(options: RuleSetOptions) {
    this.#enforceScope = options.enforceScope;
    const overrides = options.overrides ?? {};
    for (const [name, rule] of Object.entries(overrides)) {
      this.#rules.set(name, parseNamed(name, rule));
    }
    for (const rule of options.defaults) {
      this.#registered.set(rule.name, rule);
      if (Object.hasOwn(overrides, rule.name)) continue;
      const withDeprecated =
        !options.enforceNewDefaults &&
        rule.deprecatedCheckString !== undefined &&
        rule.deprecatedCheckString !== rule.checkString;
      const check = parseNamed(rule.name, rule.checkString);
      // oslo.policy ORs the two parsed checks (an empty new default allows on its own).
      this.#rules.set(
        rule.name,
        withDeprecated
          ? { kind: 'or', checks: [check, parseNamed(rule.name, rule.deprecatedCheckString)] }
          : check,
      );
    }
    this.#refuseCycles();
  }

  /** `a: rule:b` with `b: rule:a` would recurse forever at the first request. */
  #refuseCycles(): void {
    const visit = (check: Check, path: readonly string[]): void => {
      if (check.kind === 'rule') {
        if (path.includes(check.name)) {
          throw new PolicySyntaxError(
            `rules ${[...path, check.name].map((n) => `'${n}'`).join(' -> ')} form a cycle`,
          );
        }
        const target = this.#rules.get(check.name);
        if (target !== undefined) visit(target, [...path, check.name]);
      } else if (check.kind === 'not') {
        visit(check.check, path);
      } else if (check.kind === 'and' || check.kind === 'or') {
        for (const inner of check.checks) visit(inner, path);
      }
    };
    for (const [name, check] of this.#rules) visit(check, [name]);
  }

  /** The check a rule name resolves to (overrides applied), for inspection. */
  rule(name: string): Check | undefined {
    return this.#rules.get(name);
  }

  enforce(rule: string, credentials: Credentials, target: PolicyTarget): boolean {
    return this.enforceWith(rule, policyCredentials(credentials), target);
  }

  /** Like enforce, with credentials already in oslo.policy's shape. */
  enforceWith(rule: string, credentials: PolicyCredentials, target: PolicyTarget): boolean {
    const registered = this.#registered.get(rule);
    if (registered === undefined) throw new PolicyNotRegisteredError(rule);
    const scopes = registered.scopeTypes;
    if (scopes !== undefined && scopes.length > 0) {
      const tokenScope = tokenScopeOf(credentials);
      if (!scopes.includes(tokenScope as never) && this.#enforceScope) {
        throw new PolicyScopeError(rule, scopes, tokenScope);
      }
    }
    const check = this.#rules.get(rule);
    if (check === undefined) return false;
    return evaluate(check, {
      target,
      credentials,
      rule: (name) => this.#rules.get(name),
    });
  }
}

function parseNamed(name: string, rule: unknown): Check {
  try {
    return parseRule(rule);
  } catch (error) {
    if (error instanceof Error) error.message = `rule '${name}': ${error.message}`;
    throw error;
  }
}
