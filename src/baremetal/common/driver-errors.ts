/**
 * The errors of loading hardware types and choosing a node's interfaces, worded as Ironic's
 * `exception.py` words them (errors.ts re-exports them: they are part of the catalogue and
 * cross the RPC wire as themselves).
 */
import { InvalidParameterError } from '../db/errors.ts';
import { IronicError } from './ironic-error.ts';

/** Python's repr of a list of strings, as the real messages print it: `['fake', 'no-bios']`. */
export function pythonListRepr(items: readonly string[]): string {
  const quote = (text: string) =>
    text.includes("'") && !text.includes('"')
      ? `"${text}"`
      : `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return `[${items.map(quote).join(', ')}]`;
}

/** The entry-point group of a kind's implementations, which the real messages name. */
export const interfaceEntrypoint = (kind: string) => `ironic.hardware.interfaces.${kind}`;

/** InterfaceNotFoundInEntrypoint: the implementation named is not enabled (or does not exist). */
export class InterfaceNotFoundInEntrypointError extends InvalidParameterError {
  override name = 'InterfaceNotFoundInEntrypointError';
  constructor(kind: string, implementation: string, enabled: readonly string[]) {
    super(
      `Could not find the following interface in the '${interfaceEntrypoint(kind)}' entrypoint: ${implementation}. Valid interfaces are ${pythonListRepr(enabled)}.`,
    );
  }
}

/**
 * IncompatibleInterface: the implementation is enabled, but the node's hardware type does not
 * support it. The real message prints the Python object (`<…FakeBoot object at 0x7f…>`); Baton
 * has no object address to print and leaves it out.
 */
export class IncompatibleInterfaceError extends InvalidParameterError {
  override name = 'IncompatibleInterfaceError';
  constructor(kind: string, implementationClass: string, hardwareTypeClass: string) {
    super(
      `${kind} interface implementation '<${implementationClass} object>' is not supported by hardware type ${hardwareTypeClass}.`,
    );
  }
}

/** NoValidDefaultForInterface: no implementation of the kind is both supported and enabled. */
export class NoValidDefaultForInterfaceError extends InvalidParameterError {
  override name = 'NoValidDefaultForInterfaceError';
  constructor(kind: string, driver: string, node?: string) {
    const nodeInfo = node === undefined ? '' : ` node ${node} with`;
    super(
      `For${nodeInfo} hardware type '${driver}', no default value found for ${kind} interface could be determined. Please ensure the interfaces are enabled.`,
    );
  }
}

/** DriverNotFoundInEntrypoint: an enabled hardware type or implementation does not exist. */
export class DriverNotFoundInEntrypointError extends IronicError {
  override name = 'DriverNotFoundInEntrypointError';
  override get code() {
    return 404;
  }
  constructor(names: readonly string[], entrypoint: string) {
    super(
      `Could not find the following items in the '${entrypoint}' entrypoint: ${names.join(', ')}.`,
    );
  }
}

/** NoDriversLoaded: a conductor with no hardware type enabled does not start. */
export class NoDriversLoadedError extends IronicError {
  override name = 'NoDriversLoadedError';
  constructor(conductor: string) {
    super(`Conductor ${conductor} cannot be started because no hardware types were loaded.`);
  }
}
