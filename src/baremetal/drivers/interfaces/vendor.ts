/**
 * The vendor interface (Ironic's VendorInterface): methods of the hardware's own, called
 * through vendor passthru (which Baton does not serve yet). Only `validate` and the driver
 * properties it documents are used.
 */
import type { HardwareInterface } from '../base-interface.ts';

export type VendorInterface = HardwareInterface<'vendor'>;
