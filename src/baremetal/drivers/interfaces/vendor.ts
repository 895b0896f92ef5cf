/**
 * The vendor interface (Ironic's VendorInterface): methods of the hardware's own, called
 * through vendor passthru. `vendorRoutes` are a node's (`/v1/nodes/{node}/vendor_passthru`),
 * `driverRoutes` the hardware type's (`/v1/drivers/{driver}/vendor_passthru`), each by name
 * with the metadata the real `@passthru` / `@driver_passthru` decorators record.
 */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

/** The arguments of a call: the request's JSON object body. */
export type PassthruArgs = Readonly<Record<string, unknown>>;

export interface PassthruMethod {
  /** Upper-case HTTP methods the method answers to. */
  readonly httpMethods: readonly string[];
  /** Run in the background (the API answers 202) rather than answered (200). */
  readonly async: boolean;
  readonly description: string;
  /** The return value is sent as the response body's bytes rather than as JSON. */
  readonly attach: boolean;
}

export interface VendorMethod extends PassthruMethod {
  /** Take the node exclusively before validating and calling (a node method's default). */
  readonly requireExclusiveLock: boolean;
  call(task: DriverTask, httpMethod: string, args: PassthruArgs): Promise<unknown>;
}

export interface DriverVendorMethod extends PassthruMethod {
  call(httpMethod: string, args: PassthruArgs): Promise<unknown>;
}

export interface VendorInterface extends HardwareInterface<'vendor'> {
  readonly vendorRoutes: Readonly<Record<string, VendorMethod>>;
  readonly driverRoutes: Readonly<Record<string, DriverVendorMethod>>;
  /**
   * `validate(task)` for node validation; with `method`, the check of a passthru call's
   * arguments (MissingParameterValue, InvalidParameterValue).
   */
  validate(task: DriverTask, method?: string, args?: PassthruArgs): Promise<void>;
  /** The check of a driver passthru call (driver_validate). */
  driverValidate(method: string, args: PassthruArgs): Promise<void>;
}
