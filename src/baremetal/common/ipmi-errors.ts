/**
 * The errors of the `ipmitool` interfaces, worded as Ironic's `exception.py` words them
 * (errors.ts re-exports them: they cross the RPC wire as themselves).
 */
import { IronicError } from './ironic-error.ts';

/** IPMIFailure: an ipmitool command failed after its retries (500). */
export class IPMIFailureError extends IronicError {
  override name = 'IPMIFailureError';
  readonly cmd: string;
  constructor(cmd: string) {
    super(`IPMI call failed: ${cmd}.`);
    this.cmd = cmd;
  }
}

/** PasswordFileFailedToCreate: the file handing ipmitool its password could not be written. */
export class PasswordFileFailedToCreateError extends IronicError {
  override name = 'PasswordFileFailedToCreateError';
  constructor(error: string) {
    super(`Failed to create the password file. ${error}`);
  }
}

/** FailedToGetSensorData. */
export class FailedToGetSensorDataError extends IronicError {
  override name = 'FailedToGetSensorDataError';
  constructor(node: string, error: string) {
    super(`Failed to get sensor data for node ${node}. Error: ${error}`);
  }
}

/** FailedToParseSensorData. */
export class FailedToParseSensorDataError extends IronicError {
  override name = 'FailedToParseSensorDataError';
  constructor(node: string, error: string) {
    super(`Failed to parse sensor data for node ${node}. Error: ${error}`);
  }
}
