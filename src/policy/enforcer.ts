/** What handlers ask of the policy engine: may these credentials apply this rule to this target? */
import type { RequestCredentials } from '../auth/request-credentials.ts';

/** Who is asking, as the auth layer established it (Keystone or noauth2). */
export type Credentials = RequestCredentials;

/** What a handler asks a policy: may these credentials do this action on this target. */
export interface PolicyEnforcer {
  /**
   * True when allowed. `target` holds what check strings like `project_id:%(project_id)s`
   * read. Throws PolicyScopeError when `enforce_scope` refuses the token's scope.
   */
  enforce(
    rule: string,
    credentials: Credentials,
    target: Readonly<Record<string, unknown>>,
  ): boolean;
}

/**
 * The token's scope is not one the rule is meant for, and `enforce_scope` is on. The real
 * service answers 403 with just the rule name as the message (it builds its
 * PolicyNotAuthorized from the bare action here).
 */
export class PolicyScopeError extends Error {
  override name = 'PolicyScopeError';
  readonly rule: string;
  constructor(rule: string, scopeTypes: readonly string[], tokenScope: string) {
    super(`${rule} requires a ${scopeTypes.join(' or ')} scoped token, not ${tokenScope}`);
    this.rule = rule;
  }
}

/** A handler asked about a rule nobody registered: a programming error (500), as in oslo.policy. */
export class PolicyNotRegisteredError extends Error {
  override name = 'PolicyNotRegisteredError';
  constructor(rule: string) {
    super(`Policy ${rule} has not been registered`);
  }
}
