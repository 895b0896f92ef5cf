/**
 * Ironic 21.4's registered rules and their defaults (ironic/common/policy.py, the secure-RBAC
 * generation): personas for the system scope (admin, member, reader), the project that owns a
 * node and the one that leases it, and the `service` role. Each rule keeps the pre-RBAC check
 * it replaced, ORed in while `[oslo_policy] enforce_new_defaults` is off (21.4's default, as
 * `enforce_scope`): then a project `admin` of any project passes as the legacy `is_admin`.
 * Targets read `node.owner` / `node.lessee` (ports and portgroups: those of their node).
 */
import type { RuleDefault, ScopeType } from '../../policy/index.ts';

const SYSTEM_ADMIN = 'role:admin and system_scope:all';
// `rule:service_role` needs `[DEFAULT] rbac_service_role_elevated_access`, off by default: the
// target then lacks `config.service_project_name` and the check fails, as in the real service.
const SYSTEM_MEMBER = '(role:member and system_scope:all) or rule:service_role';
const SYSTEM_READER =
  '(role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role';
const PROJECT_MEMBER = 'role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)';
const PROJECT_READER = 'role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)';
const SYSTEM_SERVICE = 'role:service and system_scope:all';
const PROJECT_SERVICE = 'role:service and project_id:%(node.owner)s';
const PROJECT_ADMIN = 'role:admin and project_id:%(node.owner)s';
const OWNER_ADMIN = 'role:admin and project_id:%(node.owner)s';
const OWNER_MANAGER = 'role:manager and project_id:%(node.owner)s';
const OWNER_MEMBER = 'role:member and project_id:%(node.owner)s';
const OWNER_READER = 'role:reader and project_id:%(node.owner)s';
const LESSEE_ADMIN = 'role:admin and project_id:%(node.lessee)s';
const LESSEE_MANAGER = 'role:manager and project_id:%(node.lessee)s';
const ALLOCATION_OWNER_MEMBER = 'role:member and project_id:%(allocation.owner)s';
const ALLOCATION_OWNER_READER = 'role:reader and project_id:%(allocation.owner)s';

/** `(a) or (b) or …`, the way the real module composes its personas. */
const anyOf = (...checks: string[]): string => checks.map((check) => `(${check})`).join(' or ');

const SYSTEM_OR_PROJECT_MEMBER = anyOf(SYSTEM_MEMBER, PROJECT_MEMBER, SYSTEM_SERVICE);
const SYSTEM_OR_PROJECT_READER = anyOf(SYSTEM_READER, PROJECT_READER, PROJECT_SERVICE);
const SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN = anyOf(
  SYSTEM_MEMBER,
  SYSTEM_SERVICE,
  OWNER_MEMBER,
  LESSEE_ADMIN,
  LESSEE_MANAGER,
  PROJECT_SERVICE,
);
const SYSTEM_ADMIN_OR_OWNER_ADMIN = anyOf(
  SYSTEM_ADMIN,
  SYSTEM_SERVICE,
  OWNER_ADMIN,
  OWNER_MANAGER,
  PROJECT_SERVICE,
);
const SYSTEM_MEMBER_OR_OWNER_ADMIN = anyOf(
  SYSTEM_MEMBER,
  SYSTEM_SERVICE,
  OWNER_ADMIN,
  OWNER_MANAGER,
  PROJECT_SERVICE,
);
const SYSTEM_MEMBER_OR_OWNER_MEMBER = anyOf(
  SYSTEM_MEMBER,
  SYSTEM_SERVICE,
  OWNER_MEMBER,
  PROJECT_SERVICE,
);
const SYSTEM_OR_OWNER_READER = anyOf(SYSTEM_READER, SYSTEM_SERVICE, OWNER_READER, PROJECT_SERVICE);
const SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN = anyOf(
  SYSTEM_MEMBER,
  SYSTEM_SERVICE,
  OWNER_ADMIN,
  OWNER_MANAGER,
  LESSEE_ADMIN,
  LESSEE_MANAGER,
  PROJECT_SERVICE,
);
const ALLOCATION_MEMBER = anyOf(SYSTEM_MEMBER, ALLOCATION_OWNER_MEMBER);
const ALLOCATION_READER = anyOf(SYSTEM_READER, ALLOCATION_OWNER_READER);
const ALLOCATION_CREATOR = anyOf(SYSTEM_MEMBER, 'role:member');
const API_READER = anyOf('role:reader', 'role:service');
const TARGET_PROPERTIES_READER = anyOf(SYSTEM_READER, 'role:admin');

// The pre-RBAC checks the defaults replaced.
const IS_ADMIN = 'rule:is_admin';
const IS_ADMIN_OR_OBSERVER = 'rule:is_admin or rule:is_observer';

const SYSTEM: readonly ScopeType[] = ['system'];
const PROJECT: readonly ScopeType[] = ['project'];
const BOTH: readonly ScopeType[] = ['system', 'project'];
const ANY = undefined;

function rule(
  name: string,
  checkString: string,
  scopeTypes: readonly ScopeType[] | undefined,
  deprecatedCheckString?: string,
): RuleDefault {
  return {
    name,
    checkString,
    ...(scopeTypes === undefined ? {} : { scopeTypes }),
    ...(deprecatedCheckString === undefined ? {} : { deprecatedCheckString }),
  };
}

/** The legacy rules the pre-RBAC checks name, and the switches for secrets in answers. */
const BASE_RULES: readonly RuleDefault[] = [
  rule('admin_api', 'role:admin or role:administrator', ANY),
  rule('public_api', 'is_public_api:True', ANY),
  rule('show_password', '!', ANY),
  rule('show_instance_secrets', '!', ANY),
  rule('service_role', 'role:service and project_name:%(config.service_project_name)s', ANY),
  rule(
    'is_member',
    '(project_domain_id:default or project_domain_id:None) and (project_name:demo or project_name:baremetal)',
    ANY,
  ),
  rule('is_observer', 'rule:is_member and (role:observer or role:baremetal_observer)', ANY),
  rule('is_admin', 'rule:admin_api or (rule:is_member and role:baremetal_admin)', ANY),
  rule('is_node_owner', 'project_id:%(node.owner)s', ANY),
  rule('is_node_lessee', 'project_id:%(node.lessee)s', ANY),
  rule('is_allocation_owner', 'project_id:%(allocation.owner)s', ANY),
];

const API_RULES: readonly RuleDefault[] = [
  rule('baremetal:node:create', anyOf(SYSTEM_ADMIN, SYSTEM_SERVICE), BOTH, IS_ADMIN),
  rule('baremetal:node:create:self_owned_node', anyOf('role:admin', 'role:service'), BOTH),
  rule('baremetal:node:list', API_READER, BOTH, 'rule:baremetal:node:get'),
  rule('baremetal:node:list_all', SYSTEM_READER, BOTH, 'rule:baremetal:node:get'),
  rule('baremetal:node:get', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:get:filter_threshold', SYSTEM_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:get:last_error', SYSTEM_OR_OWNER_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:get:reservation', SYSTEM_OR_OWNER_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule(
    'baremetal:node:get:driver_internal_info',
    SYSTEM_OR_OWNER_READER,
    BOTH,
    IS_ADMIN_OR_OBSERVER,
  ),
  rule('baremetal:node:get:driver_info', SYSTEM_OR_OWNER_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:update:driver_info', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:properties', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:chassis_uuid', SYSTEM_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:update:instance_uuid', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:lessee', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:owner', SYSTEM_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:driver_interfaces', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:update:network_data', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:conductor_group', SYSTEM_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:name', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update:retired', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update', SYSTEM_OR_PROJECT_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:update_extra', SYSTEM_OR_PROJECT_MEMBER, BOTH, 'rule:baremetal:node:update'),
  rule(
    'baremetal:node:update_instance_info',
    SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
    BOTH,
    'rule:baremetal:node:update',
  ),
  rule('baremetal:node:update_owner_provisioned', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:node:delete', SYSTEM_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:delete:self_owned_node', PROJECT_ADMIN, BOTH),
  rule('baremetal:node:validate', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:set_maintenance', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:clear_maintenance', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:get_boot_device', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:set_boot_device', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:get_indicator_state', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:set_indicator_state', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:inject_nmi', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:get_states', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:set_power_state', SYSTEM_OR_PROJECT_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:set_boot_mode', SYSTEM_OR_PROJECT_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:set_secure_boot', SYSTEM_OR_PROJECT_MEMBER, BOTH, IS_ADMIN),
  rule(
    'baremetal:node:set_provision_state',
    SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN,
    BOTH,
    IS_ADMIN,
  ),
  rule('baremetal:node:set_raid_state', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:get_console', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:set_console_state', SYSTEM_MEMBER_OR_OWNER_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:node:vif:list', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN),
  rule('baremetal:node:vif:attach', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:vif:detach', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:traits:list', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:traits:set', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:traits:delete', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:node:bios:get', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:disable_cleaning', SYSTEM_ADMIN, SYSTEM, 'rule:baremetal:node:update'),
  rule('baremetal:node:history:get', SYSTEM_OR_OWNER_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:inventory:get', SYSTEM_OR_OWNER_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:node:update:shard', SYSTEM_ADMIN, BOTH),
  rule('baremetal:shards:get', SYSTEM_READER, BOTH),
  rule('baremetal:port:get', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:port:list', API_READER, BOTH, 'rule:baremetal:port:get'),
  rule('baremetal:port:list_all', SYSTEM_READER, BOTH, 'rule:baremetal:port:get'),
  rule('baremetal:port:create', SYSTEM_ADMIN_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:port:delete', SYSTEM_ADMIN_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:port:update', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:portgroup:get', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:portgroup:create', SYSTEM_ADMIN_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:portgroup:delete', SYSTEM_ADMIN_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:portgroup:update', SYSTEM_MEMBER_OR_OWNER_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:portgroup:list', API_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:portgroup:list_all', SYSTEM_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:chassis:get', SYSTEM_READER, SYSTEM, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:chassis:create', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:chassis:delete', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:chassis:update', SYSTEM_MEMBER, SYSTEM, IS_ADMIN),
  rule('baremetal:driver:get', SYSTEM_READER, SYSTEM, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:driver:get_properties', SYSTEM_READER, SYSTEM, IS_ADMIN_OR_OBSERVER),
  rule(
    'baremetal:driver:get_raid_logical_disk_properties',
    SYSTEM_READER,
    SYSTEM,
    IS_ADMIN_OR_OBSERVER,
  ),
  rule('baremetal:node:vendor_passthru', SYSTEM_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:driver:vendor_passthru', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:node:ipa_heartbeat', '', ANY, 'rule:public_api'),
  rule('baremetal:driver:ipa_lookup', '', ANY, 'rule:public_api'),
  rule('baremetal:volume:list_all', SYSTEM_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:volume:list', API_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:volume:get', SYSTEM_OR_PROJECT_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:volume:create', SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:volume:delete', SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:volume:update', SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN, BOTH, IS_ADMIN),
  rule('baremetal:volume:view_target_properties', TARGET_PROPERTIES_READER, BOTH, IS_ADMIN),
  rule('baremetal:conductor:get', SYSTEM_READER, SYSTEM, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:allocation:get', ALLOCATION_READER, BOTH, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:allocation:list', API_READER, BOTH, 'rule:baremetal:allocation:get'),
  rule(
    'baremetal:allocation:list_all',
    SYSTEM_READER,
    BOTH,
    'rule:baremetal:allocation:get and is_admin_project:True',
  ),
  rule(
    'baremetal:allocation:create',
    ALLOCATION_CREATOR,
    BOTH,
    'rule:is_admin and is_admin_project:True',
  ),
  rule(
    'baremetal:allocation:create_restricted',
    SYSTEM_MEMBER,
    BOTH,
    'rule:baremetal:allocation:create',
  ),
  rule('baremetal:allocation:delete', ALLOCATION_MEMBER, BOTH, IS_ADMIN),
  rule('baremetal:allocation:update', ALLOCATION_MEMBER, BOTH, IS_ADMIN),
  rule(
    'baremetal:allocation:create_pre_rbac',
    '(rule:is_member and role:baremetal_admin) or (is_admin_project:True and role:admin)',
    PROJECT,
  ),
  rule('baremetal:events:post', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:deploy_template:get', SYSTEM_READER, SYSTEM, IS_ADMIN_OR_OBSERVER),
  rule('baremetal:deploy_template:create', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:deploy_template:delete', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
  rule('baremetal:deploy_template:update', SYSTEM_ADMIN, SYSTEM, IS_ADMIN),
];

/** Every registered rule, in the real service's registration order. */
export const BAREMETAL_RULE_DEFAULTS: readonly RuleDefault[] = [...BASE_RULES, ...API_RULES];
