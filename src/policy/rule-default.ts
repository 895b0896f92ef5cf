/** A registered rule as a service declares it (oslo.policy's RuleDefault): name, default, scopes. */

export type ScopeType = 'system' | 'project' | 'domain';

/**
 * A registered rule: its name, default check text, description and scope types (oslo.policy's
 * RuleDefault).
 */
export interface RuleDefault {
  readonly name: string;
  readonly checkString: string;
  /** Scopes the operation is meant for; undefined means any (no scope check). */
  readonly scopeTypes?: readonly ScopeType[];
  /** The check string this default replaced, ORed in while enforce_new_defaults is off. */
  readonly deprecatedCheckString?: string;
}
