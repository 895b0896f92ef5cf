/**
 * The bare metal service's error catalogue (Ironic's `ironic/common/exception.py`): every error
 * the service can answer, each a class with the real message template and the real HTTP
 * status as `code`. The store's errors (db/errors.ts) and the hash ring's (NoValidHost,
 * TemporaryFailure) are listed here beside the conductor's and the API's; every one of them
 * can cross the RPC wire and comes back as itself (`rpcapi/remote-errors.ts`), so the API
 * turns an error into a response in one place, by `code`.
 *
 * Ironic's name for each class is in its comment.
 */
import { IronicError } from './ironic-error.ts';

export {
  BaremetalStoreError,
  ConductorAlreadyRegisteredError,
  DuplicateError,
  type DuplicateField,
  duplicateOf,
  InstanceAssociatedError,
  InvalidConductorGroupError,
  InvalidIdentityError,
  InvalidParameterError,
  NewerRowError,
  NodeLockedError,
  NodeNotLockedError,
  NodeTraitNotFoundError,
  NotEmptyError,
  NotFoundError,
  type ResourceKind,
} from '../db/errors.ts';
export { AllocationFailedError } from './allocation-errors.ts';
export { InvalidDeployTemplateError } from './deploy-template-errors.ts';
export {
  DriverNotFoundInEntrypointError,
  IncompatibleInterfaceError,
  InterfaceNotFoundInEntrypointError,
  NoDriversLoadedError,
  NoValidDefaultForInterfaceError,
} from './driver-errors.ts';
export { NoConductorsError, NoValidHostError } from './hash-ring.ts';
export { ImageDownloadFailedError, ImageRefValidationFailedError } from './image-errors.ts';
export {
  FailedToGetSensorDataError,
  FailedToParseSensorDataError,
  IPMIFailureError,
  PasswordFileFailedToCreateError,
} from './ipmi-errors.ts';
export { IronicError, rebuildIronicError } from './ironic-error.ts';

import { InvalidParameterError } from '../db/errors.ts';

/** The HTTP status an error is answered with: its `code`, 500 for anything else. */
export function httpStatusOf(error: unknown): number {
  return error instanceof IronicError ? error.code : 500;
}

// ---- Invalid (400) ----

/** InvalidStateRequested: the state machine has no such transition from the node's state. */
export class InvalidStateRequestedError extends IronicError {
  override name = 'InvalidStateRequestedError';
  override get code() {
    return 400;
  }
  readonly action: string;
  readonly node: string;
  readonly state: string;
  constructor(action: string, node: string, state: string) {
    super(
      `The requested action "${action}" can not be performed on node "${node}" while it is in state "${state}".`,
    );
    this.action = action;
    this.node = node;
    this.state = state;
  }
}

/** MissingParameterValue: a parameter the operation needs is absent (the message says which). */
export class MissingParameterError extends InvalidParameterError {
  override name = 'MissingParameterError';
}

/** NodeInMaintenance. */
export class NodeInMaintenanceError extends IronicError {
  override name = 'NodeInMaintenanceError';
  override get code() {
    return 400;
  }
  readonly op: string;
  readonly node: string;
  constructor(op: string, node: string) {
    super(
      `The ${op} operation can't be performed on node ${node} because it's in maintenance mode.`,
    );
    this.op = op;
    this.node = node;
  }
}

/** NodeIsRetired. */
export class NodeIsRetiredError extends IronicError {
  override name = 'NodeIsRetiredError';
  override get code() {
    return 400;
  }
  readonly op: string;
  readonly node: string;
  constructor(op: string, node: string) {
    super(`The ${op} operation can't be performed on node ${node} because it is retired.`);
    this.op = op;
    this.node = node;
  }
}

/** UnsupportedDriverExtension: the node's interface of that kind is a `no-*` one. */
export class UnsupportedDriverExtensionError extends IronicError {
  override name = 'UnsupportedDriverExtensionError';
  override get code() {
    return 400;
  }
  readonly driver: string;
  readonly extension: string;
  constructor(driver: string, extension: string) {
    super(`Driver ${driver} does not support ${extension} (disabled or not implemented).`);
    this.driver = driver;
    this.extension = extension;
  }
}

/** NodeConsoleNotEnabled (an Invalid): the API answers it as a console shown disabled. */
export class NodeConsoleNotEnabledError extends IronicError {
  override name = 'NodeConsoleNotEnabledError';
  override get code() {
    return 400;
  }
  readonly node: string;
  constructor(node: string) {
    super(`Console access is not enabled on node ${node}`);
    this.node = node;
  }
}

/** VifNotAttached. */
export class VifNotAttachedError extends IronicError {
  override name = 'VifNotAttachedError';
  override get code() {
    return 400;
  }
  readonly vif: string;
  readonly node: string;
  constructor(vif: string, node: string) {
    super(`Unable to detach VIF ${vif} from node ${node} because it is not attached to it.`);
    this.vif = vif;
    this.node = node;
  }
}

/** NoFreePhysicalPorts. */
export class NoFreePhysicalPortsError extends IronicError {
  override name = 'NoFreePhysicalPortsError';
  override get code() {
    return 400;
  }
  readonly vif: string;
  constructor(vif: string) {
    super(`Unable to attach VIF ${vif}, not enough free physical ports.`);
    this.vif = vif;
  }
}

/** Invalid with a message of the API's (InvalidUuidOrName, InvalidMAC, PatchError...). */
export class InvalidError extends IronicError {
  override name = 'InvalidError';
  override get code() {
    return 400;
  }
}

// ---- NotAuthorized (403) ----

/** NodeProtected. */
export class NodeProtectedError extends IronicError {
  override name = 'NodeProtectedError';
  override get code() {
    return 403;
  }
  readonly node: string;
  constructor(node: string) {
    super(`Node ${node} is protected and cannot be undeployed, rebuilt or deleted`);
    this.node = node;
  }
}

// ---- NotFound (404) ----

/** DriverNotFound. */
export class DriverNotFoundError extends IronicError {
  override name = 'DriverNotFoundError';
  override get code() {
    return 404;
  }
  readonly driverName: string;
  /** `message`: raised with a text of its own (the hash ring's), which replaces the template. */
  constructor(driverName: string, message?: string) {
    super(message ?? `Could not find the following driver(s) or hardware type(s): ${driverName}.`);
    this.driverName = driverName;
  }
}

// ---- Conflict (409) ----

/** InvalidState: the operation is refused in the node's state (the message says why). */
export class InvalidStateError extends IronicError {
  override name = 'InvalidStateError';
  override get code() {
    return 409;
  }
}

/** NodeAssociated (an InvalidState). */
export class NodeAssociatedError extends InvalidStateError {
  override name = 'NodeAssociatedError';
  readonly node: string;
  readonly instance: string;
  constructor(node: string, instance: string) {
    super(`Node ${node} is associated with instance ${instance}.`);
    this.node = node;
    this.instance = instance;
  }
}

/** PowerStateFailure (an InvalidState). */
export class PowerStateFailureError extends InvalidStateError {
  override name = 'PowerStateFailureError';
  readonly pstate: string;
  constructor(pstate: string) {
    super(`Failed to set node power state to ${pstate}.`);
    this.pstate = pstate;
  }
}

/** Conflict with a message of its own (a port joining a port group on another network...). */
export class ConflictError extends IronicError {
  override name = 'ConflictError';
  override get code() {
    return 409;
  }
}

/**
 * Baton's: a row changed by another request after this update read it (the fields named, or
 * writes), so applying the update would lose that request's change. The API reads the row again
 * and applies the request anew; a client sees this only when that kept failing, and may send
 * the request again. Not exported: only its subclasses cross the RPC wire.
 */
abstract class ChangedMeanwhileError extends IronicError {
  override get code() {
    return 409;
  }
  readonly fields: readonly string[];
  /** `row`: how the message names it (`Node <uuid>`). */
  constructor(row: string, fields: readonly string[]) {
    super(
      `${row} was changed by another request while this one was being applied (${fields.join(', ')}), please retry.`,
    );
    this.fields = fields;
  }
}

/** Baton's: the node changed meanwhile (another writer changed a field the update read). */
export class NodeChangedError extends ChangedMeanwhileError {
  override name = 'NodeChangedError';
  readonly node: string;
  constructor(node: string, fields: readonly string[]) {
    super(`Node ${node}`, fields);
    this.node = node;
  }
}

/** Baton's: a volume connector or target changed meanwhile (the node's NodeChanged, for volumes). */
export class VolumeChangedError extends ChangedMeanwhileError {
  override name = 'VolumeChangedError';
  readonly volume: string;
  constructor(volume: string, fields: readonly string[]) {
    super(`Volume ${volume}`, fields);
    this.volume = volume;
  }
}

/** VifAlreadyAttached. */
export class VifAlreadyAttachedError extends IronicError {
  override name = 'VifAlreadyAttachedError';
  override get code() {
    return 409;
  }
  readonly vif: string;
  readonly objectType: string;
  readonly objectUuid: string;
  constructor(vif: string, objectType: string, objectUuid: string) {
    super(
      `Unable to attach VIF because VIF ${vif} is already attached to Ironic ${objectType} ${objectUuid}`,
    );
    this.vif = vif;
    this.objectType = objectType;
    this.objectUuid = objectUuid;
  }
}

/** VifInvalidForAttach. */
export class VifInvalidForAttachError extends IronicError {
  override name = 'VifInvalidForAttachError';
  override get code() {
    return 409;
  }
  readonly vif: string;
  readonly node: string;
  readonly reason: string;
  constructor(vif: string, node: string, reason: string) {
    super(`Unable to attach VIF ${vif} to node ${node}. Reason: ${reason}`);
    this.vif = vif;
    this.node = node;
    this.reason = reason;
  }
}

// ---- TemporaryFailure (503) ----

/** NoFreeConductorWorker: the conductor's worker pool is full. */
export class NoFreeConductorWorkerError extends IronicError {
  override name = 'NoFreeConductorWorkerError';
  override get code() {
    return 503;
  }
  constructor() {
    super('Requested action cannot be performed due to lack of free conductor workers.');
  }
}

/**
 * Baton's: the database did not answer (stopped, restarting, unreachable). The real service
 * lets oslo.db's DBConnectionError through as a 500; a client can act on a 503 (retry).
 */
export class DatabaseUnavailableError extends IronicError {
  override name = 'DatabaseUnavailableError';
  override get code() {
    return 503;
  }
  constructor() {
    super('The database is unavailable. Please retry the request later.');
  }
}

/**
 * VendorPassthruException: a vendor method failed with an error that is not the service's own
 * (the real passthru decorator wraps it, keeping its text); a synchronous call answers 500.
 */
export class VendorPassthruError extends IronicError {
  override name = 'VendorPassthruError';
  override get code() {
    return 500;
  }
}

// ---- failures of background work (500; recorded in last_error, never answered) ----

/**
 * InstanceDeployFailure. Raised with a message of its own and the status of the error it
 * wraps (`InstanceDeployFailure(msg, code=e.code)`), it answers with those.
 */
export class InstanceDeployFailureError extends IronicError {
  override name = 'InstanceDeployFailureError';
  readonly reason: string;
  readonly status: number | undefined;
  constructor(reason: string, options: { message?: string; code?: number } = {}) {
    super(options.message ?? `Failed to deploy instance: ${reason}`);
    this.reason = reason;
    this.status = options.code;
  }
  override get code() {
    return this.status ?? 500;
  }
}

/** InstanceRescueFailure. */
export class InstanceRescueFailureError extends IronicError {
  override name = 'InstanceRescueFailureError';
  readonly instance: string | null;
  readonly node: string;
  readonly reason: string;
  constructor(instance: string | null, node: string, reason: string) {
    super(`Failed to rescue instance ${instance ?? 'None'} for node ${node}: ${reason}`);
    this.instance = instance;
    this.node = node;
    this.reason = reason;
  }
}

/** InstanceUnrescueFailure. */
export class InstanceUnrescueFailureError extends IronicError {
  override name = 'InstanceUnrescueFailureError';
  readonly instance: string | null;
  readonly node: string;
  readonly reason: string;
  constructor(instance: string | null, node: string, reason: string) {
    super(`Failed to unrescue instance ${instance ?? 'None'} for node ${node}: ${reason}`);
    this.instance = instance;
    this.node = node;
    this.reason = reason;
  }
}

/** HardwareInspectionFailure. */
export class HardwareInspectionFailureError extends IronicError {
  override name = 'HardwareInspectionFailureError';
  readonly error: string;
  constructor(error: string) {
    super(`Failed to inspect hardware. Reason: ${error}`);
    this.error = error;
  }
}

/** NodeCleaningFailure. */
export class NodeCleaningFailureError extends IronicError {
  override name = 'NodeCleaningFailureError';
  readonly node: string;
  readonly reason: string;
  constructor(node: string, reason: string) {
    super(`Failed to clean node ${node}: ${reason}`);
    this.node = node;
    this.reason = reason;
  }
}
