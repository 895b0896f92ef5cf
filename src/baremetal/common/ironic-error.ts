/**
 * The base of the bare metal service's errors, as Ironic's `IronicException`: a message worded
 * as the real service words it and `code`, the HTTP status the API answers it with (Ironic
 * keeps the status on the exception class too). Every such error can cross the RPC wire: its
 * fields travel as `wireData()` and the client rebuilds it as the same class
 * (`rebuildIronicError`), so the API maps it once, at its edge.
 */
import type { WireError } from '../../rpc/index.ts';

export class IronicError extends Error implements WireError {
  override name = 'IronicError';

  /** The HTTP status of the error (Ironic's `code`): 500 unless a class says otherwise. */
  get code(): number {
    return 500;
  }

  /** The error's own fields (everything but name and message) for the wire. */
  wireData(): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(this)) {
      if (key === 'name' || key === 'message' || key === 'stack' || value === undefined) continue;
      data[key] = value;
    }
    return data;
  }
}

/**
 * An error of class `type` as it arrived from a peer: its message as sent and its fields as
 * `wireData()` gave them. The constructor is not run (its arguments are not on the wire, only
 * what they produced), so the class's own prototype, name, message and fields are set here.
 */
export function rebuildIronicError<E extends IronicError>(
  type: abstract new (...args: never[]) => E,
  name: string,
  message: string,
  data: Record<string, unknown>,
): E {
  const error = Reflect.construct(Error, [message], type) as E;
  Object.defineProperty(error, 'name', {
    value: name,
    writable: true,
    enumerable: true,
    configurable: true,
  });
  for (const [key, value] of Object.entries(data)) {
    if (key !== 'name' && key !== 'message' && key !== 'stack') {
      Object.defineProperty(error, key, {
        value,
        writable: false,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return error;
}
