/**
 * How a service process starts and stops: one file for every service, read top to bottom.
 *
 * Start, in this order; nothing is written before the process holds its identity and its
 * ports:
 *   1. its operations from the plan: logs, health check, metrics (process-operations.ts);
 *   2. the database, opened the service's way (its schema checked, an empty one created);
 *   3. the rows: a newer release's rows this code cannot read refuse the start (exit 2);
 *   4. the peers: a live process of the binary far newer than this code refuses the start;
 *   5. the deployment: the caps in force, from the pin or the oldest live process, followed
 *      on SIGHUP; a live process too old to talk to refuses the start;
 *   6. the metrics port, bound;
 *   7. the service's own `start(ctx)`: it binds its ports, claims its identity in the
 *      services table (`ctx.claim`: a live process with that identity refuses the start, a
 *      stopping one is waited for), and only then writes (registrations, clean-ups,
 *      takeovers) and serves;
 *   8. the process marked serving, and the services watch started.
 * A start that fails part-way undoes what it did, in reverse, and leaves the services table
 * as it found it.
 *
 * Stop: the row marked stopping (a successor waits for it), the service's own stop (an API
 * drains, a conductor hands its nodes over), the row removed, then what the service opened
 * (its RPC transport), the operations and the database, in that order.
 *
 * Reload (SIGHUP): the log level from the plan made again, the options that need a restart
 * named, the deployment read again (process-reload.ts).
 */
import type { Database, LivenessOptions, ServiceRegistration } from '../db/index.ts';
import { registerService } from '../db/index.ts';
import type { CapsInForce } from '../releases/index.ts';
import { followDeployment, type LiveDeployment, pinOf } from './live-deployment.ts';
import type { LogSink } from './logging/service-logger.ts';
import type { OperationsConfig } from './operations-config.ts';
import { followPoolApiMax } from './pool-api-max.ts';
import { createProcessOperations, type ProcessOperations } from './process-operations.ts';
import { checkPeerVersions } from './process-registration.ts';
import { type ReloadInput, type ReloadReport, reloadProcess } from './process-reload.ts';
import { assertRowsReadable } from './readable-rows.ts';
import type { ServiceDefinition } from './service-definition.ts';
import type { ServicesWatch } from './services-watch.ts';
import { workerQualifiedHost } from './workers.ts';

/** What the lifecycle needs of a plan, besides what the service's own start reads. */
export interface LifecyclePlan {
  readonly databaseUrl: string;
  /** The caps the pin gives (resolved before anything opens). */
  readonly caps: CapsInForce;
  readonly operations: OperationsConfig;
  /** Who counts as live in the services table (the service's heartbeat timeout). */
  readonly liveness: LivenessOptions;
  readonly heartbeatSeconds: number;
  /** The config files read, recorded in the services row. */
  readonly configFiles: readonly string[];
  /** How long a predecessor with this identity may take to stop before the start gives up. */
  readonly predecessorWaitSeconds: number;
}

/** A binary of a service, as the lifecycle runs it. */
export interface ProcessDefinition<Running, Outcome = boolean> {
  readonly service: ServiceDefinition;
  readonly binary: string;
  /** How many service versions behind its oldest live peer it may start. */
  readonly supportedSpan: number;
  /** Opens the service's database: its schema checked, an empty one created. */
  openDatabase(url: string): Promise<Database>;
  /** The service's own start (step 7 above). */
  start(ctx: ProcessContext): Promise<StartedWork<Running, Outcome>>;
}

/** What the service's start is given. */
export interface ProcessContext {
  readonly ops: ProcessOperations;
  readonly database: Database;
  /** The caps in force now; they follow the deployment on SIGHUP. */
  readonly caps: CapsInForce;
  /**
   * Claims the process's identity in the services table under `host` (the workers of a pool
   * are told apart after it); call once, after binding and before the first write.
   */
  claim(
    host: string,
    facts?: { readonly address?: string; readonly rpcAddress?: string },
  ): Promise<void>;
  /** Closed at stop (and when the start fails after this call), after the service's own stop. */
  onClose(close: () => Promise<unknown>): void;
  /**
   * The highest microversion to serve now, following the pool of live processes (an API
   * process hands it to its negotiator); read once before this resolves, then every heartbeat.
   */
  followApiMax(): Promise<() => string | undefined>;
}

/** What the service's start returns. */
export interface StartedWork<Running, Outcome = boolean> {
  readonly running: Running;
  /** The service's own stop, and what it says of it (clean or not, what was cut). */
  stop(): Promise<Outcome>;
  /** Why it cannot do its work now (written with each heartbeat); undefined when healthy. */
  health?(): Promise<string | undefined>;
}

/** A started process. */
export interface RunningProcess<Running, Outcome = boolean> {
  readonly running: Running;
  readonly ops: ProcessOperations;
  /** The caps in force now. */
  readonly caps: CapsInForce;
  /** Where `/metrics` and `/healthcheck` answer on `[metrics] bind_port`, if opened. */
  readonly metricsUrl: string | undefined;
  reload(input: Omit<ReloadInput, 'pinBefore'>): Promise<ReloadReport>;
  /** The stop above, with the service's own outcome. Called twice, the same stop. */
  stop(): Promise<Outcome>;
}

export interface StartProcessOptions {
  /** Where log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
  /** Loggers made by the service that follow the level on SIGHUP. */
  readonly childLoggers?: (ops: ProcessOperations) => readonly unknown[];
}

/** Starts a process of `definition` as planned (the order above). */
export async function startProcess<Running, Outcome = boolean>(
  definition: ProcessDefinition<Running, Outcome>,
  plan: LifecyclePlan,
  options: StartProcessOptions = {},
): Promise<RunningProcess<Running, Outcome>> {
  const { service, binary } = definition;
  const version = service.code.serviceVersion ?? 1;
  const ops = createProcessOperations({
    service,
    binary,
    serviceVersion: version,
    caps: plan.caps,
    config: plan.operations,
    ...(options.logSink === undefined ? {} : { logSink: options.logSink }),
  });
  const logger = ops.log.logger;
  const warn = (message: string) => logger.warn(message);
  const closers: (() => Promise<unknown>)[] = [];
  let database: Database | undefined;
  let registration: ServiceRegistration | undefined;
  let stopHeartbeats: (() => void) | undefined;
  let work: StartedWork<Running, Outcome> | undefined;
  const undo = async () => {
    stopHeartbeats?.();
    await registration?.deregister();
    for (const close of closers.reverse()) await close();
    await ops.close();
    await database?.close();
  };
  try {
    database = await definition.openDatabase(plan.databaseUrl);
    const db = database;
    await assertRowsReadable(db, service, plan.liveness);
    await checkPeerVersions(db, { binary, version, supportedSpan: definition.supportedSpan }, warn);
    const deployment: LiveDeployment = await followDeployment(db, service, plan.caps, {
      liveness: plan.liveness,
      log: { info: (message) => logger.info(message), warn },
    });
    const setGauges = (caps: CapsInForce) => ops.metrics?.deployment.setCaps(caps, service.code);
    setGauges(deployment.caps.current());
    deployment.caps.onUpdate(setGauges);
    const metrics = await ops.listenForMetrics();
    const caps = deployment.caps;
    const ctx: ProcessContext = {
      ops,
      database: db,
      caps,
      async claim(host, facts = {}) {
        if (registration !== undefined) throw new Error(`${binary} claimed its identity twice`);
        registration = await registerService(db, {
          binary,
          host: workerQualifiedHost(host),
          version,
          caps: () => ({ pin: pinOf(caps), release: caps.release }),
          ...(facts.rpcAddress === undefined ? {} : { rpcAddress: facts.rpcAddress }),
          process: {
            pid: process.pid,
            configFiles: plan.configFiles,
            ...(facts.address === undefined ? {} : { address: facts.address }),
          },
          // The service's own verdict, for the row and for /healthcheck alike.
          health: async () => {
            const problem = await work?.health?.();
            ops.health.noteWork(problem);
            return problem;
          },
          claim: {
            ...plan.liveness,
            waitForStoppingMs: plan.predecessorWaitSeconds * 1000,
            onWait: (holder) =>
              logger.warn(
                `${binary} ${holder.host} is stopping (pid ${holder.pid ?? '?'}${holder.machine === undefined ? '' : ` on ${holder.machine}`}): waiting up to ${plan.predecessorWaitSeconds} s for it to leave before starting`,
              ),
          },
        });
        stopHeartbeats = registration.startHeartbeats({
          intervalSeconds: plan.heartbeatSeconds,
          onError: (error) => warn(`heartbeat failed: ${(error as Error).message}`),
        });
      },
      onClose(close) {
        closers.push(close);
      },
      async followApiMax() {
        const pool = await followPoolApiMax(db, service, caps, {
          liveness: plan.liveness,
          intervalSeconds: plan.heartbeatSeconds,
          log: { info: (message) => logger.info(message), warn },
        });
        closers.push(async () => pool.stop());
        return () => pool.current();
      },
    };
    work = await definition.start(ctx);
    const claimed = registration as ServiceRegistration | undefined;
    if (claimed === undefined) throw new Error(`${binary} started without claiming its identity`);
    await claimed.setState('serving');
    const watch: ServicesWatch = await ops.watchServices(db);
    logger.info(
      {
        service_version: version,
        release: caps.release ?? 'master',
        caps_source: caps.source.kind,
        api_max: caps.apiMax,
        rpc_cap: caps.rpcCap,
      },
      `${binary} serving: caps in force`,
    );
    const started = work;
    let stopping: Promise<Outcome> | undefined;
    return {
      running: started.running,
      ops,
      caps,
      metricsUrl: metrics?.url,
      reload: (input) =>
        reloadProcess(
          {
            log: ops.log,
            deployment,
            watch,
            childLoggers: [ops.rpc.logger, ...(options.childLoggers?.(ops) ?? [])],
          },
          { ...input, pinBefore: pinOf(plan.caps) },
        ),
      stop() {
        stopping ??= (async () => {
          // A successor with the same identity waits for this row to go.
          await claimed.setState('stopping').catch(() => undefined);
          const began = performance.now();
          try {
            return await started.stop();
          } finally {
            logger.info(
              { stop_seconds: Math.round(performance.now() - began) / 1000 },
              `${binary} stopped`,
            );
            await undo();
          }
        })();
        return stopping;
      },
    };
  } catch (error) {
    await undo();
    throw error;
  }
}
