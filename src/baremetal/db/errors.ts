/**
 * The store's errors: classes with the fields the API needs, worded as Ironic words them
 * (`ironic/common/exception.py`). Each has the HTTP status of the Ironic class it stands for
 * as `code` (NotFound 404, Conflict 409, Invalid 400); the service's catalogue
 * (`../errors.ts`) lists them beside the conductor's, and they cross the RPC wire as
 * themselves.
 */
import { IronicError } from '../common/ironic-error.ts';

export class BaremetalStoreError extends IronicError {
  override name = 'BaremetalStoreError';
}

export type ResourceKind =
  | 'node'
  | 'chassis'
  | 'port'
  | 'portgroup'
  | 'conductor'
  | 'instance'
  | 'node_inventory'
  | 'allocation'
  | 'deploy_template'
  | 'bios_setting'
  | 'node_history'
  | 'volume_connector'
  | 'volume_target';

const NOT_FOUND_SUBJECT: Record<ResourceKind, string> = {
  node: 'Node',
  chassis: 'Chassis',
  port: 'Port',
  portgroup: 'Portgroup',
  conductor: 'Conductor',
  instance: 'Instance',
  node_inventory: 'Node inventory record for node',
  allocation: 'Allocation',
  deploy_template: 'Deploy template',
  bios_setting: 'BIOS setting',
  node_history: 'Node history record',
  volume_connector: 'Volume connector',
  volume_target: 'Volume target',
};

/**
 * NodeNotFound, ChassisNotFound, PortNotFound, PortgroupNotFound, ConductorNotFound,
 * InstanceNotFound, NodeInventoryNotFound (its identifier is the node's database id, as
 * Ironic's words it), AllocationNotFound, DeployTemplateNotFound, NodeHistoryNotFound,
 * BIOSSettingNotFound (worded by biosSettingNotFound).
 */
export class NotFoundError extends BaremetalStoreError {
  override name = 'NotFoundError';
  override get code() {
    return 404;
  }
  readonly kind: ResourceKind;
  /** The id, uuid, name or address that was looked up. */
  readonly identifier: string | number;
  constructor(kind: ResourceKind, identifier: string | number, message?: string) {
    super(message ?? `${NOT_FOUND_SUBJECT[kind]} ${identifier} could not be found.`);
    this.kind = kind;
    this.identifier = identifier;
  }
}

/** NodeTraitNotFound. */
export class NodeTraitNotFoundError extends BaremetalStoreError {
  override name = 'NodeTraitNotFoundError';
  override get code() {
    return 404;
  }
  /** The node as the caller named it (its id, or its UUID as the conductor reports it). */
  readonly nodeId: number | string;
  readonly trait: string;
  constructor(nodeId: number | string, trait: string) {
    super(`Node ${nodeId} doesn't have a trait '${trait}'`);
    this.nodeId = nodeId;
    this.trait = trait;
  }
}

export type DuplicateField =
  | 'uuid'
  | 'name'
  | 'address'
  | 'instance_uuid'
  | 'hardware_interface'
  | 'connector_id'
  | 'boot_index';

/**
 * NodeAlreadyExists, DuplicateName, ChassisAlreadyExists, PortAlreadyExists, MACAlreadyExists,
 * PortDuplicateName, PortgroupAlreadyExists, PortgroupMACAlreadyExists, PortgroupDuplicateName,
 * InstanceAssociated, ConductorHardwareInterfacesAlreadyRegistered: a unique value taken.
 */
export class DuplicateError extends BaremetalStoreError {
  override name = 'DuplicateError';
  override get code() {
    return 409;
  }
  readonly kind: ResourceKind | 'conductor_hardware_interface';
  readonly field: DuplicateField;
  /** The value another row already holds. */
  readonly value: string;
  constructor(kind: DuplicateError['kind'], field: DuplicateField, value: string, message: string) {
    super(message);
    this.kind = kind;
    this.field = field;
    this.value = value;
  }
}

const ARTICLE: Record<string, string> = {
  node: 'A node',
  chassis: 'A chassis',
  port: 'A port',
  portgroup: 'A portgroup',
  allocation: 'An allocation',
  deploy_template: 'A deploy template',
  volume_connector: 'A volume connector',
  volume_target: 'A volume target',
};

/**
 * The duplicate error Ironic raises for a unique column of a resource (AllocationDuplicateName,
 * DeployTemplateAlreadyExists … for the newer ones).
 */
export function duplicateOf(
  kind:
    | 'node'
    | 'chassis'
    | 'port'
    | 'portgroup'
    | 'allocation'
    | 'deploy_template'
    | 'volume_connector'
    | 'volume_target',
  field: 'uuid' | 'name' | 'address',
  value: string,
): DuplicateError {
  const what = field === 'uuid' ? 'UUID' : field === 'address' ? 'MAC address' : 'name';
  return new DuplicateError(
    kind,
    field,
    value,
    `${ARTICLE[kind]} with ${what} ${value} already exists.`,
  );
}

/** InstanceAssociated: the instance UUID is already on another node. */
export class InstanceAssociatedError extends DuplicateError {
  override name = 'InstanceAssociatedError';
  /** The node being written (its uuid or identifier). */
  readonly node: string;
  constructor(instanceUuid: string, node: string) {
    super(
      'node',
      'instance_uuid',
      instanceUuid,
      `Instance ${instanceUuid} is already associated with a node, it cannot be associated with this other node ${node}`,
    );
    this.node = node;
  }
}

/** NodeLocked: another host holds the node's reservation. */
export class NodeLockedError extends BaremetalStoreError {
  override name = 'NodeLockedError';
  override get code() {
    return 409;
  }
  /** The node's uuid. */
  readonly node: string;
  /** The holder of the reservation. */
  readonly host: string;
  constructor(node: string, host: string) {
    super(
      `Node ${node} is locked by host ${host}, please retry after the current operation is completed.`,
    );
    this.node = node;
    this.host = host;
  }
}

/** NodeNotLocked: a release of a node that nobody holds. */
export class NodeNotLockedError extends BaremetalStoreError {
  override name = 'NodeNotLockedError';
  override get code() {
    return 400;
  }
  readonly node: string;
  constructor(node: string) {
    super(`Node ${node} found not to be locked on release`);
    this.node = node;
  }
}

/** InvalidParameterValue: a value the store cannot accept (the message says which and why). */
export class InvalidParameterError extends BaremetalStoreError {
  override name = 'InvalidParameterError';
  override get code() {
    return 400;
  }
  /** The parameter concerned, when there is one (`sort_key`, `limit`, `uuid`...). */
  readonly parameter: string | undefined;
  constructor(message: string, parameter?: string) {
    super(message);
    this.parameter = parameter;
  }
}

/** InvalidIdentity: neither an integer id nor a UUID. */
export class InvalidIdentityError extends InvalidParameterError {
  override name = 'InvalidIdentityError';
  readonly identity: string;
  constructor(identity: string) {
    super(`Expected a UUID or int but received ${identity}.`);
    this.identity = identity;
  }
}

/** InvalidConductorGroup. */
export class InvalidConductorGroupError extends InvalidParameterError {
  override name = 'InvalidConductorGroupError';
  readonly group: unknown;
  constructor(group: unknown) {
    super(`Expected a conductor group but received ${String(group)}.`, 'conductor_group');
    this.group = group;
  }
}

/** ChassisNotEmpty, PortgroupNotEmpty: the resource still holds others. */
export class NotEmptyError extends BaremetalStoreError {
  override name = 'NotEmptyError';
  override get code() {
    return 400;
  }
  readonly kind: 'chassis' | 'portgroup';
  readonly identifier: string | number;
  constructor(kind: 'chassis' | 'portgroup', identifier: string | number) {
    const holds = kind === 'chassis' ? 'nodes' : 'ports';
    super(`Cannot complete the requested action because ${kind} ${identifier} contains ${holds}.`);
    this.kind = kind;
    this.identifier = identifier;
  }
}

/** ConductorAlreadyRegistered: an online conductor of that hostname exists. */
export class ConductorAlreadyRegisteredError extends BaremetalStoreError {
  override name = 'ConductorAlreadyRegisteredError';
  readonly hostname: string;
  constructor(hostname: string) {
    super(`Conductor ${hostname} already registered.`);
    this.hostname = hostname;
  }
}

/**
 * Baton's: a row written by a newer release, at an object version this process cannot read.
 * The real service lets IncompatibleObjectVersion through as a 500; this one says why, and a
 * 503 tells the client (or the balancer) that a process of the newer release can serve it.
 */
export class NewerRowError extends BaremetalStoreError {
  override name = 'NewerRowError';
  override get code() {
    return 503;
  }
  readonly objectName: string;
  readonly version: string;
  readonly supported: string;
  constructor(objectName: string, version: string, supported: string) {
    super(
      `This ${objectName} was written by a newer release of the service (${objectName} ${version}) than this process runs (it reads ${objectName} up to ${supported}); a process of the newer release can serve this request.`,
    );
    this.objectName = objectName;
    this.version = version;
    this.supported = supported;
  }
}

/** BIOSSettingNotFound: "Node <node> doesn't have a BIOS setting '<name>'". */
export function biosSettingNotFound(node: string | number, name: string): NotFoundError {
  return new NotFoundError(
    'bios_setting',
    name,
    `Node ${node} doesn't have a BIOS setting '${name}'`,
  );
}

/** VolumeConnectorTypeAndIdAlreadyExists: another connector has this type and connector ID. */
export function connectorTypeAndIdTaken(type: string, connectorId: string): DuplicateError {
  return new DuplicateError(
    'volume_connector',
    'connector_id',
    connectorId,
    `A volume connector with type ${type} and connector ID ${connectorId} already exists.`,
  );
}

/** VolumeTargetBootIndexAlreadyExists: the node has a target at this boot index. */
export function targetBootIndexTaken(bootIndex: string): DuplicateError {
  return new DuplicateError(
    'volume_target',
    'boot_index',
    bootIndex,
    `A volume target with boot index '${bootIndex}' for the same node already exists.`,
  );
}
