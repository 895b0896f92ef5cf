/**
 * The versions a service's code speaks, read from its own tables: the microversion list's
 * last entry, the RPC versions table's latest, each object type's current version. The
 * release mapping's `master` entry is derived from them, never written a second time.
 */
import type { ObjectType } from '../objects/index.ts';
import type { Release } from '../releases/index.ts';
import type { RpcVersionsTable } from '../rpc/index.ts';

/** The versions the code speaks: API, RPC and each object type's latest. */
export interface CodeVersions {
  /** The latest API microversion; undefined for a service without an API. */
  readonly api: string | undefined;
  /** The latest RPC API version; undefined for a service without RPC. */
  readonly rpc: string | undefined;
  /** Each object type's current version, by name. */
  readonly objects: Readonly<Record<string, string>>;
  /** The service version its processes report in the services table (the service-version spec). */
  readonly serviceVersion: number | undefined;
}

/** The tables a service's versions come from. */
export interface CodeTables {
  /** The API's microversions, oldest first (the last one is the latest). */
  readonly apiVersions?: readonly string[];
  readonly rpcVersions?: RpcVersionsTable<string>;
  readonly objectTypes?: readonly Pick<ObjectType, 'name' | 'version'>[];
  /** The service version of this code (`<service>/service-version.ts`). */
  readonly serviceVersion?: number;
}

/** The code's versions, read from its tables. */
export function codeVersionsOf(tables: CodeTables): CodeVersions {
  const objects: Record<string, string> = {};
  for (const type of tables.objectTypes ?? []) {
    if (Object.hasOwn(objects, type.name))
      throw new RangeError(`object type ${type.name} is listed twice`);
    objects[type.name] = type.version;
  }
  const api = tables.apiVersions?.at(-1);
  if (tables.apiVersions !== undefined && api === undefined)
    throw new RangeError('an API needs at least one microversion');
  return { api, rpc: tables.rpcVersions?.latest, objects, serviceVersion: tables.serviceVersion };
}

/** The `master` entry of a release mapping: exactly what the code speaks. */
export function masterReleaseOf(code: CodeVersions): Release {
  const objects: Record<string, readonly string[]> = {};
  for (const [name, version] of Object.entries(code.objects)) objects[name] = [version];
  return {
    ...(code.api === undefined ? {} : { api: code.api }),
    ...(code.rpc === undefined ? {} : { rpc: code.rpc }),
    ...(code.serviceVersion === undefined ? {} : { serviceVersion: code.serviceVersion }),
    objects,
  };
}
