/**
 * What the rehearsal needs to know of a service to upgrade it live: how each process of its
 * two tiers is configured and started, its database commands, the load it is kept under and
 * how the data is checked afterwards. The rehearsal itself (the cluster, HAProxy, the steps,
 * the report) is the same for every service; the bare metal service is one such definition
 * (baremetal-rehearsal.ts), the example leases service another (leases-rehearsal.ts).
 */
import type { Database } from '../db/index.ts';
import type { DataCheckResult } from './data-check.ts';
import type { VersionCounts } from './database-snapshot.ts';
import type { RequestLog } from './request-log.ts';
import type { Tier } from './step-plan.ts';

/** What the rehearsal decided for one process: the service turns it into its config file. */
export interface ProcessSettings {
  readonly tier: Tier;
  /** Distinct per process, so that each has its own services-table row. */
  readonly host: string;
  readonly databaseUrl: string;
  readonly rpc: 'http' | 'amqp';
  readonly amqpUrl: string;
  /** An exchange of the rehearsal's own, with amqp. */
  readonly exchange: string;
  /** The release the process is pinned to; empty: unpinned. */
  readonly pin: string;
  /** Where the process may serve `/metrics` (the caps in force are read there, if it does). */
  readonly metricsPort: number;
  /** API processes: the port HAProxy sends requests to. */
  readonly apiPort?: number;
  /** API processes: seconds to keep answering, with a failing health check, after SIGTERM. */
  readonly drainWait?: number;
  readonly logFile: string;
}

/** How to run a command: `node <args>` in `cwd` (default: the rehearsal's own). */
export interface CommandLaunch {
  readonly args: readonly string[];
  readonly cwd?: string;
}

/** How to start a process: a command that serves, ready once its output matches `ready`. */
export interface ProcessLaunch extends CommandLaunch {
  readonly ready: RegExp;
}

/**
 * The database commands of the rolling-upgrade steps: the schema upgrade (step 0), the online
 * data migrations and the upgrade check (the last step); going back also needs the rows
 * rewritten down and the plan (`baton rehearse --back-from`).
 */
export type DatabaseCommand =
  | 'db-upgrade'
  | 'online-migrations'
  | 'upgrade-check'
  | 'downgrade-rows'
  | 'plan';

/** What the load is told: where to send requests, how fast, and where to record them. */
export interface LoadSettings {
  /** HAProxy's URL, in front of the API processes. */
  readonly baseUrl: string;
  /** The microversion both releases serve, which the load speaks through the balancer. */
  readonly microversion: string;
  readonly workers: number;
  /** Requests per second, all workers together. */
  readonly rate: number;
  /** Unique to the rehearsal: a prefix for the names the load gives. */
  readonly runId: string;
  /** Every request goes in, with its outcome: one failure fails the rehearsal. */
  readonly log: RequestLog;
  /** Going back: the highest microversion served may go down. */
  readonly latestMayGoDown: boolean;
}

/** The load on a running cluster. */
export interface ServiceLoad {
  /** Starts the load's workers (the cluster is up behind the balancer). */
  start(): void;
  /** Starts nothing new and waits for what is under way to end. */
  stop(): Promise<void>;
  /**
   * The APIs that serve the new release's own microversion now (asked directly, not through
   * the balancer, where a pinned API would refuse it); empty before step 3.3.
   */
  setNewReleaseApis(urls: readonly string[]): void;
  /**
   * Requests per second from now on, all workers together; Infinity: each worker sends as soon
   * as its last answer came. Without it, `--find-capacity` cannot measure the service.
   */
  setRate?(rate: number): void;
}

/**
 * A service the rehearsal can upgrade: `baton rehearse --service <name>`. Its recorded
 * releases are the files of `releases/` whose `service` is `name`.
 */
export interface RehearsedService<Load extends ServiceLoad = ServiceLoad> {
  /** As in the release files and `--service`. */
  readonly name: string;
  /** What the tier behind RPC is called in the progress lines and report (`conductor`). */
  readonly workerTier: string;
  /** The text of a process's config file. */
  configText(settings: ProcessSettings): string;
  /** How a process of `tier` of the build in `root` starts with its config file. */
  launch(root: string, tier: Tier, configFile: string): ProcessLaunch;
  /**
   * How to run a database command of the build in `root`; undefined when the service has
   * none (then the steps that need it fail: going back needs `downgrade-rows` and `plan`).
   */
  databaseCommand(
    root: string,
    command: DatabaseCommand,
    databaseUrl: string,
    previousRelease: string,
  ): CommandLaunch | undefined;
  /**
   * Whether the schema has migrations held back until the online migrations are done (a
   * migration's `blockedBy`): the last step then runs the schema upgrade again after them.
   */
  readonly contractAfterOnlineMigrations?: boolean;
  /** The version header of the API (`X-OpenStack-Ironic-API-Version`). */
  readonly microversionHeader: string;
  /** The microversion of the load through the balancer, when `--microversion` is not given. */
  readonly defaultMicroversion: string;
  /** What only the new release serves: from this version on, an API counts as the new release's. */
  readonly newReleaseMicroversion: string;
  /** The object types shown with each process's caps in the step table. */
  readonly objectsShown: readonly string[];
  /** The services-table binaries of this service start with this. */
  readonly binaryPrefix: string;
  /** The load profile: which requests, at which microversions, what each answer must say. */
  createLoad(settings: LoadSettings): Load;
  /** Rows per object version in each object table, at the end of each step. */
  versionCounts(db: Database): Promise<VersionCounts>;
  /** After the cluster stopped: the database held to what the load saw acknowledged. */
  checkData(db: Database, load: Load): Promise<DataCheckResult>;
}
