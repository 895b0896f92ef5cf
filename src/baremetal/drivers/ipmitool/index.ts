/** The `ipmitool` implementations (power and management) the `ipmi` hardware type offers first. */
import type { AnyImplementation } from '../implementation.ts';
import { ipmitoolManagement } from './ipmitool-management.ts';
import { ipmitoolPower } from './ipmitool-power.ts';

export const IPMITOOL_IMPLEMENTATIONS: readonly AnyImplementation[] = [
  ipmitoolManagement,
  ipmitoolPower,
];
