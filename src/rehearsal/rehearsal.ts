/**
 * `baton rehearse`: a live rolling upgrade of a service (bare metal, or another one's
 * definition: rehearsed-service.ts) from a recorded release to the working tree, under load, through the rolling-upgrade doc's steps (docs/rehearsal.md).
 *
 * It builds the previous release, gives the database its schema with it, starts two conductors
 * (the tier behind RPC) and two API processes of that release behind HAProxy, starts the load generator through the
 * balancer, then walks the steps: each replaces one process (a conductor: the new one starts
 * before the old one stops; an API: the old one drains out of the balancer and exits, the new
 * one starts on its port and waits until HAProxy sees it up) or runs the database commands of
 * the new code, then holds for the step's seconds. At the end the load stops, the cluster
 * stops, and the data check holds the database to what the load saw acknowledged.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '../db/index.ts';
import { SYSCONFDIR_ENV } from '../service/config-files.ts';
import { REHEARSAL_STATUS_ENV } from '../service/dashboard/rehearsal-status.ts';
import { type Balancer, startBalancer } from './balancer.ts';
import { BAREMETAL_REHEARSAL } from './baremetal-rehearsal.ts';
import type { CapacityMeasure } from './capacity.ts';
import { detectionSeconds, HEALTH_CHECK } from './cluster-config.ts';
import { ClusterEvents } from './cluster-events.ts';
import { liveServices, type VersionCounts } from './database-snapshot.ts';
import { assertEmptyDatabase } from './empty-database.ts';
import { freePort } from './free-port.ts';
import { capsFromMetrics } from './metrics-caps.ts';
import { preparePreviousRelease, readReleaseFiles, releaseCacheDir } from './previous-release.ts';
import { CpuSampler, cpuPercentBetween } from './process-cpu.ts';
import { type RunningProcess, runCommand, startNodeProcess, stopProcess } from './processes.ts';
import type { DatabaseCommand, RehearsedService, ServiceLoad } from './rehearsed-service.ts';
import { chooseRelease } from './release-files.ts';
import {
  type CommandView,
  type ProcessView,
  type RehearsalReport,
  rehearsalPassed,
  type StepReport,
} from './report.ts';
import { RequestLog, windowFigures } from './request-log.ts';
import { slowestRequests } from './slow-requests.ts';
import { publishStatus } from './status-file.ts';
import {
  type Build,
  describeTier,
  type Fleet,
  fleetAfter,
  initialFleet,
  PROCESSES_PER_TIER,
  rehearsalSteps,
  type Step,
  type StepAction,
  stepsThereAndBack,
  type Tier,
} from './step-plan.ts';
import { timeline } from './timeline.ts';

/**
 * What a rehearsal runs: where the releases are, the database, the RPC transport, the load and the
 * pace.
 */
export interface RehearsalOptions {
  /** The service to upgrade (default: the bare metal service). */
  // biome-ignore lint/suspicious/noExplicitAny: each service's load has its own type
  readonly service?: RehearsedService<any>;
  /** The working tree: the new release, and where the release files are. */
  readonly repoRoot: string;
  readonly from?: string;
  /** Default: a SQLite file in the rehearsal's temporary folder. Give an empty database. */
  readonly databaseUrl?: string;
  readonly rpc: 'http' | 'amqp';
  readonly amqpUrl: string;
  readonly stepSeconds: number;
  readonly rate: number;
  readonly workers: number;
  /** The load's microversion through the balancer (default: the service's). */
  readonly microversion?: string;
  /** Walk forward to this step, then back to step 0 (docs/rehearsal.md, "Going back"). */
  readonly backFrom?: string;
  readonly cacheDir?: string;
  /**
   * A folder where every process of the cluster writes a V8 CPU profile when it exits
   * (`<host>.cpuprofile`): what each one spent its time on (docs/rehearsal.md, "Where the time goes").
   */
  readonly profileDir?: string;
  /**
   * Measure the cluster's capacity with the same mix before step 0 and after the last step:
   * the load unpaced for one step's length (capacity.ts, docs/rehearsal.md "Capacity").
   */
  readonly findCapacity?: boolean;
  /** Where the progress lines go. */
  readonly say: (line: string) => void;
}

/** Seconds a draining API keeps answering while failing its health check. */
export const DRAIN_WAIT_SECONDS = Math.ceil(detectionSeconds(HEALTH_CHECK) + 2);

interface Member {
  readonly tier: Tier;
  readonly index: number;
  readonly build: Build;
  readonly host: string;
  readonly metricsPort: number;
  /** API processes: where they listen (their services-table row is `<machine>:<port>`). */
  readonly apiPort?: number;
  readonly process: RunningProcess;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The highest microversion an API serves now (`latest` on `/v1`), or undefined. */
async function servedMax(url: string, header: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${url}/v1`, {
      headers: { [header]: 'latest' },
      signal: AbortSignal.timeout(2_000),
    });
    await response.arrayBuffer();
    return response.headers.get(header) ?? undefined;
  } catch {
    return undefined;
  }
}

function higherOrEqual(version: string | undefined, than: string): boolean {
  if (version === undefined) return false;
  const [am = 0, an = 0] = version.split('.').map(Number);
  const [bm = 0, bn = 0] = than.split('.').map(Number);
  return am > bm || (am === bm && an >= bn);
}

async function scrapeCaps(port: number) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
      signal: AbortSignal.timeout(5_000),
    });
    return capsFromMetrics(await response.text());
  } catch {
    return undefined;
  }
}

/**
 * Runs a rehearsal: the previous release under load, replaced process by process with the working
 * tree's, then the data check.
 */
export async function rehearse(options: RehearsalOptions): Promise<RehearsalReport> {
  const { repoRoot, say } = options;
  const service = options.service ?? BAREMETAL_REHEARSAL;
  const microversion = options.microversion ?? service.defaultMicroversion;
  const release = chooseRelease(await readReleaseFiles(repoRoot), service.name, options.from);
  if (options.databaseUrl !== undefined) await assertEmptyDatabase(options.databaseUrl);
  say(
    `previous release: ${release.name} at ${release.commit} (API ${release.api}, RPC ${release.rpc})`,
  );
  const previousRoot = await preparePreviousRelease({
    repoRoot,
    commit: release.commit,
    cacheDir: options.cacheDir ?? releaseCacheDir(),
    say,
  });
  const dir = await mkdtemp(join(tmpdir(), 'baton-rehearsal-'));
  const runId = `r${randomBytes(3).toString('hex')}`;
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dir, `${service.name}.sqlite`)}`;
  say(`rehearsal ${runId}: working folder ${dir}`);
  // The cluster reads the config files the rehearsal writes, not this machine's: `/etc`, where
  // every command looks for ironic.conf by itself (src/service/config-files.ts), is an empty
  // folder of the run.
  const isolated = { [SYSCONFDIR_ENV]: join(dir, 'etc') };
  const rootOf = (build: Build) => (build === 'previous' ? previousRoot : repoRoot);
  const runsOf = (build: Build) =>
    build === 'previous'
      ? release.name
      : build === 'pinned'
        ? `new pinned to ${release.name}`
        : 'new';
  const runDatabaseCommand = async (build: Build, command: DatabaseCommand) => {
    const launch = service.databaseCommand(rootOf(build), command, databaseUrl, release.name);
    if (launch === undefined) {
      return { command, status: 1, output: `${service.name} has no ${command}`, seconds: 0 };
    }
    return events.during(command, () =>
      runCommand(process.execPath, launch.args, {
        env: { ...process.env, ...isolated },
        ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
      }),
    );
  };
  // What the rehearsal does to the cluster, and what each process spends, step by step.
  const events = new ClusterEvents();
  const cpu = new CpuSampler();
  // What the dashboard of the new APIs shows of the rehearsal (docs/rehearsal.md, "Dashboard").
  const statusPath = join(dir, 'rehearsal.json');
  let stage = { step: 'starting', title: 'starting the cluster' };

  const schema = await runDatabaseCommand('previous', 'db-upgrade');
  if (schema.status !== 0) {
    throw new Error(
      `${release.name}'s db upgrade failed (exit ${schema.status}): ${schema.output}`,
    );
  }
  say(`schema created by ${release.name}'s db upgrade`);

  const apiPorts = await Promise.all(Array.from({ length: PROCESSES_PER_TIER }, () => freePort()));
  const members = new Map<string, Member>();
  const processExits: { name: string; status: number }[] = [];
  const key = (tier: Tier, index: number) => `${tier}${index}`;

  const startMember = async (tier: Tier, index: number, build: Build): Promise<Member> => {
    const host = `${runId}-${tier === 'api' ? 'api' : service.workerTier.slice(0, 4)}${index + 1}-${build}`;
    const metricsPort = await freePort();
    const file = join(dir, `${host}.conf`);
    await writeFile(
      file,
      service.configText({
        tier,
        host,
        databaseUrl,
        rpc: options.rpc,
        amqpUrl: options.amqpUrl,
        exchange: `baton-${runId}`,
        pin: build === 'pinned' ? release.name : '',
        metricsPort,
        logFile: join(dir, `${host}.log`),
        ...(tier === 'api' ? { apiPort: apiPorts[index], drainWait: DRAIN_WAIT_SECONDS } : {}),
      }),
    );
    const launch = service.launch(rootOf(build), tier, file);
    const process = await events.during(`${host} starting`, () =>
      startNodeProcess(host, launch.args, {
        ready: launch.ready,
        logDir: dir,
        env: { ...isolated, [REHEARSAL_STATUS_ENV]: statusPath },
        ...(options.profileDir === undefined
          ? {}
          : {
              nodeFlags: [
                '--cpu-prof',
                `--cpu-prof-dir=${options.profileDir}`,
                `--cpu-prof-name=${host}.cpuprofile`,
              ],
            }),
        ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
      }),
    );
    cpu.follow(host, process.child.pid);
    say(`started ${host} (${runsOf(build)})`);
    const apiPort = tier === 'api' ? apiPorts[index] : undefined;
    const member = {
      tier,
      index,
      build,
      host,
      metricsPort,
      process,
      ...(apiPort === undefined ? {} : { apiPort }),
    };
    members.set(key(tier, index), member);
    return member;
  };
  const stopMember = async (member: Member) => {
    const status = await events.during(`${member.host} stopping`, () =>
      stopProcess(member.process),
    );
    cpu.forget(member.host);
    processExits.push({ name: member.host, status });
    say(`stopped ${member.host}: exit ${status}`);
  };

  let balancer: Balancer | undefined;
  let stopFollowing = () => {};
  let generator: ServiceLoad | undefined;
  const log = new RequestLog();
  const db: Database = await openDatabase(databaseUrl, { poolSize: 2 });
  const steps: StepReport[] = [];
  const status = publishStatus(statusPath, () => {
    const failed = log.records.filter((r) => !r.ok).length + log.outcomeFailures.length;
    return { ...stage, served: log.records.length - failed, failed };
  });
  try {
    for (let i = 0; i < PROCESSES_PER_TIER; i++) await startMember('conductor', i, 'previous');
    for (let i = 0; i < PROCESSES_PER_TIER; i++) await startMember('api', i, 'previous');
    balancer = await startBalancer(
      {
        frontendPort: await freePort(),
        apis: apiPorts.map((port, i) => ({ name: `api${i + 1}`, port })),
        statsSocket: join(dir, 'haproxy.sock'),
      },
      dir,
    );
    cpu.follow('haproxy', balancer.process.child.pid);
    cpu.start();
    for (let i = 0; i < PROCESSES_PER_TIER; i++) await balancer.waitFor(`api${i + 1}`, 'UP');
    say(
      `haproxy on ${balancer.url}; load: ${options.workers} workers, ${options.rate} req/s at ${microversion}`,
    );
    say(
      `dashboard: http://127.0.0.1:${apiPorts[0]}/dashboard (served by this release's APIs: from step 2.1)`,
    );
    const load: ServiceLoad = service.createLoad({
      baseUrl: balancer.url,
      microversion,
      workers: options.workers,
      rate: options.rate,
      runId,
      log,
      // Going back lowers the pool's maximum on purpose; going forward never may.
      latestMayGoDown: options.backFrom !== undefined,
    });
    generator = load;
    // What only the new release serves is asked of the APIs that serve it, directly (through
    // the balancer a pinned API would answer 406): an unpinned API serves it only once no
    // pinned one is left (one API version across the pool), that is from step 3.4.
    let leaving: Member | undefined;
    const newReleaseApis = async () => {
      const serving: string[] = [];
      for (const member of members.values()) {
        if (member.tier !== 'api' || member.build !== 'new' || member === leaving) continue;
        const url = `http://127.0.0.1:${member.apiPort}`;
        const served = await servedMax(url, service.microversionHeader);
        if (higherOrEqual(served, service.newReleaseMicroversion)) serving.push(url);
      }
      load.setNewReleaseApis(serving);
    };
    const following = setInterval(() => void newReleaseApis().catch(() => undefined), 1000);
    stopFollowing = () => clearInterval(following);
    const loadStarted = Date.now();
    load.start();
    // The first step measures its own transition, not the load's start: the workers' first
    // turns (every one creating its first nodes) and each process's first requests (code not
    // yet optimised by V8) come during a warm-up of one step's length, before it.
    say(`warm-up: the load runs ${options.stepSeconds} s before the first step`);
    stage = { step: 'warm-up', title: 'the load warms the cluster up' };
    await sleep(options.stepSeconds * 1000);
    const measureCapacity = async (release: string): Promise<CapacityMeasure | undefined> => {
      if (options.findCapacity !== true) return undefined;
      const whose = release === 'new' ? "the new release's" : `${release}'s`;
      if (load.setRate === undefined) {
        say(`capacity: not measured, ${service.name}'s load cannot change its rate (setRate)`);
        return undefined;
      }
      say(`capacity: the load unpaced for ${options.stepSeconds} s on ${whose} cluster`);
      stage = { step: 'capacity', title: `the most ${whose} cluster serves` };
      const cpuBefore = await cpu.snapshot();
      const from = Date.now();
      load.setRate(Number.POSITIVE_INFINITY);
      await sleep(options.stepSeconds * 1000);
      load.setRate(options.rate);
      const to = Date.now();
      const shares = cpuPercentBetween(cpuBefore, await cpu.snapshot(), (to - from) / 1000);
      const figures = windowFigures(log, from, to);
      say(
        `  capacity: ${figures.perSecond} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ${figures.failed} failed`,
      );
      return { release, figures, cpu: shares };
    };
    const capacityBefore = await measureCapacity(release.name);

    let fleet: Fleet = initialFleet();
    const walk = (
      options.backFrom === undefined ? rehearsalSteps() : stepsThereAndBack(options.backFrom)
    ).map((step) => withContractStep(inServiceWords(step, service), service));
    for (const step of walk) {
      const from = Date.now();
      const cpuBefore = await cpu.snapshot();
      say(`step ${step.id}: ${step.title}`);
      stage = { step: step.id, title: step.title };
      const commands = await runStep(step, {
        replace: async (tier, index, to) => {
          const old = members.get(key(tier, index)) as Member;
          if (tier === 'conductor') {
            await startMember(tier, index, to);
            await stopMember(old);
          } else {
            // The load stops asking this API for the new release's features before it goes
            // (going back: a pinned or previous one takes its port), and asks the new one
            // only once it is up.
            leaving = old;
            await newReleaseApis();
            await stopMember(old);
            await startMember(tier, index, to);
            leaving = undefined;
            await events.during(`haproxy taking api${index + 1} in`, async () =>
              balancer?.waitFor(`api${index + 1}`, 'UP'),
            );
          }
          await newReleaseApis();
        },
        database: async (command) => {
          const result = await runDatabaseCommand('new', command);
          say(`  ${command} -> exit ${result.status} (${result.seconds} s)`);
          return result;
        },
      });
      fleet = fleetAfter(fleet, step);
      const processes = await viewProcesses([...members.values()], db, runsOf, service);
      await sleep(options.stepSeconds * 1000);
      const versions: VersionCounts = await service.versionCounts(db);
      const to = Date.now();
      const cpuShares = cpuPercentBetween(cpuBefore, await cpu.snapshot(), (to - from) / 1000);
      const figures = windowFigures(log, from, to);
      say(
        `  step ${step.id}: ${figures.served} served, ${figures.failed} failed, ${figures.perSecond} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms`,
      );
      steps.push({
        id: step.id,
        title: step.title,
        api: describeTier(fleet.api),
        conductor: describeTier(fleet.conductor),
        processes,
        commands,
        from,
        to,
        figures,
        versions,
        cpu: cpuShares,
        slowest: slowestRequests(log.records, events.events, from, to),
      });
    }
    const capacityAfter = await measureCapacity('new');
    await load.stop();
    generator = undefined;
    stage = { step: 'finished', title: 'the load stopped; stopping the cluster' };
    const total = windowFigures(log, loadStarted, Date.now() + 1);
    await balancer.stop();
    balancer = undefined;
    for (const member of [...members.values()].filter((m) => m.tier === 'api'))
      await stopMember(member);
    for (const member of [...members.values()].filter((m) => m.tier === 'conductor'))
      await stopMember(member);
    members.clear();
    // The cluster stopped cleanly: nothing may be left reserved or half-way.
    const dataCheck = await service.checkData(db, load);
    const report = {
      service: service.name,
      objectsShown: service.objectsShown,
      previous: { name: release.name, commit: release.commit },
      // The URL's scheme names the kind of database for the reader (no password in it).
      database: db.url.redacted.replace(/[:+].*$/s, ''),
      rpc: options.rpc,
      stepSeconds: options.stepSeconds,
      targetRate: options.rate,
      cores: availableParallelism(),
      ...(options.findCapacity === true
        ? {
            capacity: {
              workers: options.workers,
              seconds: options.stepSeconds,
              ...(capacityBefore === undefined ? {} : { previous: capacityBefore }),
              ...(capacityAfter === undefined ? {} : { new: capacityAfter }),
            },
          }
        : {}),
      microversion,
      steps,
      total,
      failedRequests: log.records.filter((r) => !r.ok),
      outcomeFailures: log.outcomeFailures,
      processExits,
      dataCheck,
      timeline: timeline(log.records, steps[0]?.from ?? 0, steps.at(-1)?.to ?? 0),
    };
    return { ...report, ok: rehearsalPassed(report) };
  } finally {
    cpu.stop();
    stopFollowing();
    await status.stop();
    await generator?.stop();
    await balancer?.stop();
    for (const member of members.values()) await stopProcess(member.process, 10_000);
    await db.close();
  }
}

/** A step's title with the service's name for the tier behind RPC (the plan says conductor). */
function inServiceWords(step: Step, service: RehearsedService): Step {
  return { ...step, title: step.title.replace(/\bconductor\b/g, service.workerTier) };
}

/**
 * The last step of a service whose contract migrations wait for its online migrations: the
 * schema upgrade runs again once they are done (it applies what was held back).
 */
function withContractStep(step: Step, service: RehearsedService): Step {
  if (step.id !== 'done' || !service.contractAfterOnlineMigrations) return step;
  return {
    ...step,
    title:
      'online data migrations to completion, db upgrade again (the contract), then the upgrade check',
    actions: step.actions.flatMap((action): StepAction[] =>
      action.kind === 'online-migrations' ? [action, { kind: 'db-upgrade' }] : [action],
    ),
  };
}

interface StepHooks {
  replace(tier: Tier, index: number, to: Build): Promise<void>;
  database(command: DatabaseCommand): Promise<CommandView>;
}

/**
 * `baton upgrade plan --json` of the new release, held to having placed the deployment at
 * step 0 with nothing wrong: its status becomes 1 when it did not.
 */
async function planAtStart(hooks: StepHooks): Promise<CommandView> {
  const result = await hooks.database('plan');
  if (result.status !== 0) return result;
  let verdict: string;
  try {
    // stdout and stderr come together: the JSON starts at the first line opening an object.
    const json = result.output.slice(Math.max(0, result.output.search(/^\{/m)));
    const plan = JSON.parse(json) as { current: string | null; problems: string[] };
    verdict =
      plan.current === '0' && plan.problems.length === 0
        ? ''
        : `the plan places the deployment at ${plan.current ?? 'no step'}: ${plan.problems.join('; ')}`;
  } catch (error) {
    verdict = `the plan's output is not JSON: ${String(error)}`;
  }
  return verdict === '' ? result : { ...result, status: 1, output: `${verdict}\n${result.output}` };
}

async function runStep(step: Step, hooks: StepHooks): Promise<CommandView[]> {
  const commands: CommandView[] = [];
  for (const action of step.actions) {
    if (action.kind === 'replace') await hooks.replace(action.tier, action.index, action.to);
    else if (action.kind === 'db-upgrade') commands.push(await hooks.database('db-upgrade'));
    else if (action.kind === 'upgrade-check') commands.push(await hooks.database('upgrade-check'));
    else if (action.kind === 'downgrade-rows')
      commands.push(await hooks.database('downgrade-rows'));
    else if (action.kind === 'plan-at-start') commands.push(await planAtStart(hooks));
    else {
      // Exit 1 is "more remains": run it again, as an operator does (a bounded number of times).
      let result = await hooks.database('online-migrations');
      for (let round = 1; result.status === 1 && round < 50; round++) {
        result = await hooks.database('online-migrations');
      }
      commands.push(result);
    }
  }
  return commands;
}

async function viewProcesses(
  members: readonly Member[],
  db: Database,
  runsOf: (build: Build) => string,
  service: RehearsedService,
): Promise<ProcessView[]> {
  const services = await liveServices(db);
  const sorted = [...members].sort((a, b) =>
    a.tier === b.tier ? a.index - b.index : a.tier === 'api' ? -1 : 1,
  );
  return Promise.all(
    sorted.map(async (member) => {
      const row = services.find(
        (s) =>
          s.binary.startsWith(service.binaryPrefix) &&
          (member.apiPort === undefined
            ? s.host === member.host
            : s.host.endsWith(`:${member.apiPort}`)),
      );
      const caps = await scrapeCaps(member.metricsPort);
      return {
        tier: member.tier,
        host: member.host,
        build: member.build,
        runs: runsOf(member.build),
        ...(row === undefined ? {} : { serviceVersion: row.version }),
        ...(caps === undefined ? {} : { caps }),
      };
    }),
  );
}
