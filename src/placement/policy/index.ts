/**
 * Placement's policy: its default rules on the toolkit's engine (src/policy), with the
 * `enforce_scope` and `enforce_new_defaults` switches and the operator's policy file.
 */
import { createEnforcer, type PolicyEnforcer } from '../../policy/index.ts';
import type { PlacementConfig } from '../config.ts';
import { PLACEMENT_RULE_DEFAULTS } from './default-rules.ts';

export {
  type Credentials,
  type PolicyEnforcer,
  PolicyFileError,
  PolicyNotRegisteredError,
  PolicyScopeError,
  PolicySyntaxError,
} from '../../policy/index.ts';

/** Throws PolicyFileError when the policy file is missing, unreadable or invalid. */
export function createPolicyEnforcer(config: PlacementConfig): Promise<PolicyEnforcer> {
  return createEnforcer(config, PLACEMENT_RULE_DEFAULTS);
}
