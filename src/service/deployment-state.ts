/**
 * Where a service's deployment stands, read from its database: the processes in the services
 * table (release, pin, caps, heartbeat), the schema, the pending online migrations, the rows
 * per object version of each object table, and the caps in force a process starting now
 * would get. What `baton upgrade plan` and the dashboard show. Reads only (the services table
 * is brought to its latest shape, as every reader of it does; the online
 * migrations are probed in a transaction rolled back, as the upgrade check does).
 */
import {
  checkSchema,
  countObjectVersions,
  type Database,
  findPendingOnlineMigrations,
  type LivenessOptions,
  listServices,
  type ObjectVersionCounts,
  type SchemaState,
  type ServiceRecord,
  waitingMessage,
} from '../db/index.ts';
import {
  type CapsInForce,
  codeServiceVersion,
  previousRelease,
  releaseOfServiceVersion,
} from '../releases/index.ts';
import { readDeployment } from './deployment-caps.ts';
import type { ServiceConfig, ServiceDefinition } from './service-definition.ts';

/** An online migration's state in the deployment. */
export interface OnlineMigrationState {
  readonly name: string;
  readonly description: string;
  /** Rows left; undefined when the probe failed. */
  readonly pending: number | undefined;
  readonly waiting?: string;
  readonly error?: string;
}

/**
 * What the database says of a deployment: live processes, schema, online migrations, rows per
 * object version.
 */
export interface DeploymentState {
  readonly service: string;
  readonly release: string;
  readonly previousRelease: string | undefined;
  readonly codeVersion: number;
  /** The rows of the service's binaries, live and dead. */
  readonly services: readonly ServiceRecord[];
  /** The release each service version runs (for rows). */
  readonly releaseOfVersion: (version: number) => string | undefined;
  readonly schema: {
    readonly state: SchemaState;
    readonly applied: number;
    readonly pending: readonly string[];
    /** The last migration applied (the schema version). */
    readonly version: string | undefined;
    /** Whether older code applied some of it (an upgraded schema, not a fresh install). */
    readonly appliedByOlderCode: boolean;
  };
  readonly onlineMigrations: readonly OnlineMigrationState[];
  readonly objectVersions: readonly ObjectVersionCounts[];
  /** The object versions the previous release knows, when there is one. */
  readonly previousObjects?: Readonly<Record<string, readonly string[]>>;
  /** What a process of this code starting now with this pin would run with. */
  readonly caps: CapsInForce;
}

/** What readDeploymentState reads with. */
export interface ReadStateOptions {
  readonly config: ServiceConfig;
  readonly liveness?: LivenessOptions;
  /** The pin the caps are read for (default: the config file's). */
  readonly pin?: string | undefined;
}

/** Reads a service's deployment state from its database. */
export async function readDeploymentState(
  db: Database,
  service: ServiceDefinition,
  options: ReadStateOptions,
): Promise<DeploymentState> {
  const liveness = options.liveness ?? {};
  const schema = await checkSchema(db, service.migrations);
  const current = schema.state === 'current' || schema.state === 'ahead';
  const services = (await listServices(db, liveness)).filter((row) =>
    service.binaries.includes(row.binary),
  );
  // Data migrations and object tables read what the schema migrations create.
  const pending = current
    ? await findPendingOnlineMigrations(db, service.onlineMigrations(options.config), liveness)
    : [];
  const deployment = await readDeployment(
    db,
    service,
    options.pin ?? options.config.pinReleaseVersion,
    liveness,
  );
  const mapping = service.releases;
  const previous = previousRelease(mapping);
  const previousObjects = previous === undefined ? undefined : mapping[previous]?.objects;
  return {
    service: service.name,
    release: service.release,
    previousRelease: previous,
    codeVersion: codeServiceVersion(mapping),
    services,
    releaseOfVersion: (version) => releaseOfServiceVersion(mapping, version),
    schema: {
      state: schema.state,
      applied: schema.applied.length,
      pending: schema.pending,
      version: schema.applied.at(-1),
      appliedByOlderCode: schema.appliedByOlderCode,
    },
    onlineMigrations: pending.map((m) => ({
      name: m.name,
      description: m.description,
      pending: m.pending,
      ...(m.waitingFor === undefined ? {} : { waiting: waitingMessage(m.waitingFor) }),
      ...(m.error === undefined ? {} : { error: m.error.message }),
    })),
    objectVersions: current ? await countObjectVersions(db, service.objectTables) : [],
    ...(previousObjects === undefined ? {} : { previousObjects }),
    caps: deployment.caps,
  };
}
