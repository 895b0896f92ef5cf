/**
 * Placement's registered rules and their defaults (placement/policies/*.py, the
 * system-scope generation of the secure-RBAC defaults). Base rules carry the new default
 * and the deprecated one (`role:admin`) that still applies while `enforce_new_defaults`
 * is off; API rules point at a base rule and say which token scopes they are meant for.
 */

import type { RuleDefault } from '../../policy/index.ts';

// The real deprecated rule is named 'rule:admin_api' (sic), a name no policy file uses, so
// only its check string matters.
const DEPRECATED_ADMIN = { deprecatedCheckString: 'role:admin' };

const SYSTEM_ADMIN = 'rule:system_admin_api';
const SYSTEM_READER = 'rule:system_reader_api';
const SYSTEM_OR_PROJECT_READER = 'rule:system_or_project_reader';

const BASE_RULES: readonly RuleDefault[] = [
  { name: 'admin_api', checkString: 'role:admin', scopeTypes: ['system'] },
  { name: 'system_admin_api', checkString: 'role:admin and system_scope:all', ...DEPRECATED_ADMIN },
  {
    name: 'system_reader_api',
    checkString: 'role:reader and system_scope:all',
    ...DEPRECATED_ADMIN,
  },
  {
    name: 'project_reader_api',
    checkString: 'role:reader and project_id:%(project_id)s',
    ...DEPRECATED_ADMIN,
  },
  {
    name: 'system_or_project_reader',
    checkString: 'rule:system_reader_api or rule:project_reader_api',
    ...DEPRECATED_ADMIN,
  },
];

const system = (name: string, checkString: string): RuleDefault => ({
  name,
  checkString,
  scopeTypes: ['system'],
});

const API_RULES: readonly RuleDefault[] = [
  system('placement:resource_providers:list', SYSTEM_READER),
  system('placement:resource_providers:create', SYSTEM_ADMIN),
  system('placement:resource_providers:show', SYSTEM_READER),
  system('placement:resource_providers:update', SYSTEM_ADMIN),
  system('placement:resource_providers:delete', SYSTEM_ADMIN),
  system('placement:resource_classes:list', SYSTEM_READER),
  system('placement:resource_classes:create', SYSTEM_ADMIN),
  system('placement:resource_classes:show', SYSTEM_READER),
  system('placement:resource_classes:update', SYSTEM_ADMIN),
  system('placement:resource_classes:delete', SYSTEM_ADMIN),
  system('placement:resource_providers:inventories:list', SYSTEM_READER),
  system('placement:resource_providers:inventories:create', SYSTEM_ADMIN),
  system('placement:resource_providers:inventories:show', SYSTEM_READER),
  system('placement:resource_providers:inventories:update', SYSTEM_ADMIN),
  system('placement:resource_providers:inventories:delete', SYSTEM_ADMIN),
  system('placement:resource_providers:aggregates:list', SYSTEM_READER),
  system('placement:resource_providers:aggregates:update', SYSTEM_ADMIN),
  system('placement:resource_providers:usages', SYSTEM_READER),
  {
    name: 'placement:usages',
    checkString: SYSTEM_OR_PROJECT_READER,
    scopeTypes: ['system', 'project'],
  },
  system('placement:traits:list', SYSTEM_READER),
  system('placement:traits:show', SYSTEM_READER),
  system('placement:traits:update', SYSTEM_ADMIN),
  system('placement:traits:delete', SYSTEM_ADMIN),
  system('placement:resource_providers:traits:list', SYSTEM_READER),
  system('placement:resource_providers:traits:update', SYSTEM_ADMIN),
  system('placement:resource_providers:traits:delete', SYSTEM_ADMIN),
  system('placement:allocations:manage', SYSTEM_ADMIN),
  system('placement:allocations:list', SYSTEM_READER),
  system('placement:allocations:update', SYSTEM_ADMIN),
  system('placement:allocations:delete', SYSTEM_ADMIN),
  system('placement:resource_providers:allocations:list', SYSTEM_READER),
  system('placement:allocation_candidates:list', SYSTEM_READER),
  system('placement:reshaper:reshape', SYSTEM_ADMIN),
];

/** Every registered rule, in the real service's registration order. */
export const PLACEMENT_RULE_DEFAULTS: readonly RuleDefault[] = [...BASE_RULES, ...API_RULES];
