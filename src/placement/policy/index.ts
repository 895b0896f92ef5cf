/**
 * The policy engine behind `authorize`: Placement's default rules, the `enforce_scope` and
 * `enforce_new_defaults` switches, and the operator's policy file.
 */
import type { PlacementConfig } from '../config.ts';
import { PolicySyntaxError } from './check-parser.ts';
import type { PolicyEnforcer } from './enforcer.ts';
import { loadPolicyFile, PolicyFileError } from './policy-file.ts';
import { RuleSet } from './rule-set.ts';

export { PolicySyntaxError } from './check-parser.ts';
export {
  type Credentials,
  type PolicyEnforcer,
  PolicyNotRegisteredError,
  PolicyScopeError,
} from './enforcer.ts';
export { PolicyFileError } from './policy-file.ts';

/** Throws PolicyFileError when the policy file is missing, unreadable or invalid. */
export async function createPolicyEnforcer(config: PlacementConfig): Promise<PolicyEnforcer> {
  const overrides = config.policyFile ? await loadPolicyFile(config.policyFile) : {};
  try {
    return new RuleSet({
      enforceScope: config.enforceScope,
      enforceNewDefaults: config.enforceNewDefaults,
      overrides,
    });
  } catch (error) {
    if (error instanceof PolicySyntaxError && config.policyFile) {
      throw new PolicyFileError(config.policyFile, error.message);
    }
    throw error;
  }
}
