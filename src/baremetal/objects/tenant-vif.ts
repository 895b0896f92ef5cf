/**
 * Port 1.8 and Portgroup 1.4 moved the tenant VIF from `extra['vif_port_id']` to
 * `internal_info['tenant_vif_port_id']`, without a column change. As in Ironic, every
 * conversion to that version or a later one (up or down) copies it across when `internal_info`
 * does not already name one; converting to an older version leaves both alone.
 */
import {
  type ConversionHook,
  compareObjectVersions,
  type VersionedObject,
} from '../../objects/index.ts';

/** Python's truth value of a JSON value (Ironic tests `if vif:`). */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

function copyTenantVif(obj: VersionedObject): void {
  if (!obj.isSet('extra')) return;
  const extra = obj.get('extra') as Record<string, unknown>;
  const vif = extra.vif_port_id;
  if (!truthy(vif)) return;
  const internal = obj.isSet('internal_info')
    ? (obj.get('internal_info') as Record<string, unknown>)
    : {};
  if (Object.hasOwn(internal, 'tenant_vif_port_id')) return;
  // A new dict: conversions share field values with the object they copy.
  obj.assign('internal_info', { ...internal, tenant_vif_port_id: vif });
}

/** The conversion hook of a type whose version `since` moved the tenant VIF. */
export function tenantVifFrom(since: string): ConversionHook {
  return (obj, target) => {
    if (compareObjectVersions(target, since) >= 0) copyTenantVif(obj);
  };
}
