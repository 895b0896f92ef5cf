/**
 * The toolkit's policy engine, oslo.policy's language and enforcer: each service brings its
 * registered rules (RuleDefault) and its `[oslo_policy]` settings.
 */
import { PolicySyntaxError } from './check-parser.ts';
import type { PolicyEnforcer } from './enforcer.ts';
import { loadPolicyFile, PolicyFileError } from './policy-file.ts';
import type { RuleDefault } from './rule-default.ts';
import { RuleSet } from './rule-set.ts';

export { PolicySyntaxError } from './check-parser.ts';
export type { PolicyCredentials, PolicyTarget } from './checks.ts';
export { expandImpliedRoles, policyCredentials } from './credentials.ts';
export {
  type Credentials,
  type PolicyEnforcer,
  PolicyNotRegisteredError,
  PolicyScopeError,
} from './enforcer.ts';
export { PolicyFileError } from './policy-file.ts';
export type { RuleDefault, ScopeType } from './rule-default.ts';
export { RuleSet, type RuleSetOptions } from './rule-set.ts';

/** `[oslo_policy]` as both services read it. */
export interface PolicySettings {
  readonly policyFile?: string | undefined;
  readonly enforceScope: boolean;
  readonly enforceNewDefaults: boolean;
}

/** Throws PolicyFileError when the policy file is missing, unreadable or invalid. */
export async function createRuleSet(
  settings: PolicySettings,
  defaults: readonly RuleDefault[],
): Promise<RuleSet> {
  const overrides = settings.policyFile ? await loadPolicyFile(settings.policyFile) : {};
  try {
    return new RuleSet({
      enforceScope: settings.enforceScope,
      enforceNewDefaults: settings.enforceNewDefaults,
      overrides,
      defaults,
    });
  } catch (error) {
    if (error instanceof PolicySyntaxError && settings.policyFile) {
      throw new PolicyFileError(settings.policyFile, error.message);
    }
    throw error;
  }
}

/** The same, as the narrower interface handlers use. */
export function createEnforcer(
  settings: PolicySettings,
  defaults: readonly RuleDefault[],
): Promise<PolicyEnforcer> {
  return createRuleSet(settings, defaults);
}
