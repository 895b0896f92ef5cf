/** Errors of the services registry: bad input from a service's own configuration. */

/** A service version must be a positive integer (the service-version spec: a plain counter, not semver). */
export class InvalidServiceVersionError extends Error {
  override name = 'InvalidServiceVersionError';
  readonly value: unknown;
  constructor(value: unknown) {
    super(`service version must be a positive integer, got ${String(value)}`);
    this.value = value;
  }
}

/** A binary, host or RPC address that cannot be stored (empty or over 255 characters). */
export class InvalidServiceIdentityError extends Error {
  override name = 'InvalidServiceIdentityError';
  readonly field: 'binary' | 'host' | 'rpcAddress';
  readonly value: string;
  constructor(field: 'binary' | 'host' | 'rpcAddress', value: string) {
    super(`service ${field} must be 1 to 255 characters, got ${JSON.stringify(value)}`);
    this.field = field;
    this.value = value;
  }
}

/** A number of seconds (liveness window, supported span) that is not a non-negative number. */
export class InvalidDurationError extends Error {
  override name = 'InvalidDurationError';
  readonly option: string;
  readonly value: unknown;
  constructor(option: string, value: unknown) {
    super(`${option} must be a non-negative number, got ${String(value)}`);
    this.option = option;
    this.value = value;
  }
}
