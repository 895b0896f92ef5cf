/**
 * How the `no-*` implementations refuse (Ironic's `noop._fail`): validation and every action
 * fail with UnsupportedDriverExtension naming the node's hardware type and the kind, so that
 * `node validate` shows the kind as unavailable and a request for it is a 400.
 */
import { UnsupportedDriverExtensionError } from '../../common/errors.ts';
import type { DriverTask } from '../base-interface.ts';
import type { InterfaceKind } from '../interface-kinds.ts';

export function unsupported(task: DriverTask, kind: InterfaceKind | 'abort'): never {
  throw new UnsupportedDriverExtensionError(String(task.node.get('driver')), kind);
}
