/**
 * Several service processes run as one (`baton up`): each is a child process of its own
 * binary, as a supervisor would run it, started together and stopped together. A child is
 * ready when a line of its stdout says so (its "listening on" line); its stdout lines are
 * handed on, its stderr (the log) is the parent's. Stopping sends SIGTERM to every child and
 * waits for each to drain and exit; other signals (SIGHUP) may be passed on as they come. A
 * child that ends unasked stops the others, and the outcome names it: a half-running
 * control plane would hide the failure.
 *
 * A child still starting is sent SIGTERM only once it is ready (or has ended), within
 * `startTimeoutMs`: a server that registers itself before it listens for SIGTERM would
 * otherwise die with its services row still live.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { STOP_WITH_PARENT_ENV } from './stop-signal.ts';

/** What a child of a group puts before each line the `baton` command writes to stderr. */
export const LINE_PREFIX_ENV = 'BATON_LINE_PREFIX';

export interface ChildSpec {
  /** The name messages use (its binary: `placement-api`). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Reads one line of the child's stdout; returns what it announces once ready, else undefined. */
  readonly ready: (line: string) => string | undefined;
  readonly env?: NodeJS.ProcessEnv;
}

export interface ChildExit {
  readonly name: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export type GroupOutcome =
  /** Stopped as asked; `clean` when every child exited 0. */
  | { readonly kind: 'stopped'; readonly signal: string; readonly exits: readonly ChildExit[] }
  /** A child ended unasked (before or after it was ready); the others were stopped. */
  | { readonly kind: 'died'; readonly first: ChildExit; readonly exits: readonly ChildExit[] };

export interface GroupIo {
  /** Each stdout line of each child, as it comes. */
  readonly line: (name: string, line: string) => void;
  /**
   * What a child puts before each line it writes to stderr itself (the `baton` command's
   * warnings and errors; its log lines name it already), from its name. Its stderr stays this
   * process's: a pipe would end with this process, and a log writer meeting a closed pipe
   * while the child drains (pino's sonic-boom retries it for ever) would keep it from stopping.
   */
  readonly errPrefix?: (name: string) => string;
  /** Once, when every child is ready: what each announced, in the order of the specs. */
  readonly ready: (announced: readonly { name: string; value: string }[]) => void;
}

export interface GroupOptions {
  /** Resolves when the group is asked to stop, with the signal's name. */
  readonly stopped: Promise<string>;
  /** How long a starting child may take to be ready before a stop kills it (default 60 s). */
  readonly startTimeoutMs?: number;
  /** Signals this process passes on to every running child (SIGHUP: reload), while it runs. */
  readonly forward?: readonly NodeJS.Signals[];
  /**
   * Each child leads a process group of its own: a signal sent to this process's group
   * (`kill -HUP -PGID`, a terminal's Ctrl-C) reaches the children only as passed on, once,
   * rather than twice (directly, and forwarded).
   */
  readonly ownGroups?: boolean;
}

interface Running {
  readonly spec: ChildSpec;
  readonly child: ChildProcess;
  readonly exited: Promise<ChildExit>;
  readonly readyOrExited: Promise<void>;
  announced: string | undefined;
}

function describeExit(exit: ChildExit): string {
  return exit.signal === null ? `status ${exit.code}` : `signal ${exit.signal}`;
}

/** "placement-api exited (status 1)". */
export function exitSentence(exit: ChildExit): string {
  return `${exit.name} exited (${describeExit(exit)})`;
}

function startChild(spec: ChildSpec, io: GroupIo, onReady: () => void, ownGroup: boolean): Running {
  // stdin is a pipe nothing is written to: it closes when this process ends, however it ends,
  // and the child then stops (stop-signal.ts).
  const child = spawn(spec.command, [...spec.args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...(spec.env ?? process.env),
      [STOP_WITH_PARENT_ENV]: '1',
      ...(io.errPrefix === undefined ? {} : { [LINE_PREFIX_ENV]: io.errPrefix(spec.name) }),
    },
    detached: ownGroup,
  });
  let markReady: () => void = () => {};
  const readyOrExited = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const running: Running = {
    spec,
    child,
    announced: undefined,
    readyOrExited,
    exited: new Promise<ChildExit>((resolve) => {
      // 'close' rather than 'exit': the child's last stdout lines have been read by then.
      child.once('close', (code, signal) => {
        markReady();
        resolve({ name: spec.name, code, signal });
      });
      child.once('error', () => {
        // A spawn failure (no such file) is followed by 'close' with a non-zero code.
      });
    }),
  };
  if (child.stdout !== null) {
    createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on(
      'line',
      (line) => {
        io.line(spec.name, line);
        if (running.announced !== undefined) return;
        const value = spec.ready(line);
        if (value === undefined) return;
        running.announced = value;
        markReady();
        onReady();
      },
    );
  }
  return running;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** Runs the children until asked to stop or until one ends; never rejects. */
export async function runChildGroup(
  specs: readonly ChildSpec[],
  io: GroupIo,
  options: GroupOptions,
): Promise<GroupOutcome> {
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const children: Running[] = [];
  let allReadyReported = false;
  const checkAllReady = () => {
    if (allReadyReported || children.length < specs.length) return;
    if (children.some((c) => c.announced === undefined)) return;
    allReadyReported = true;
    io.ready(children.map((c) => ({ name: c.spec.name, value: c.announced ?? '' })));
  };
  for (const spec of specs)
    children.push(startChild(spec, io, checkAllReady, options.ownGroups === true));
  checkAllReady();
  const forward = (signal: NodeJS.Signals) => {
    for (const running of children) {
      if (running.child.exitCode === null && running.child.signalCode === null) {
        running.child.kill(signal);
      }
    }
  };
  for (const signal of options.forward ?? []) process.on(signal, forward);

  let stopping = false;
  const stopOne = async (running: Running) => {
    // Not yet ready: let it finish starting (its stop handler is then in place), within bounds.
    await Promise.race([running.readyOrExited, sleep(startTimeoutMs)]);
    if (running.child.exitCode !== null || running.child.signalCode !== null) return;
    running.child.kill(running.announced === undefined ? 'SIGKILL' : 'SIGTERM');
  };
  const stopAll = () => {
    if (stopping) return;
    stopping = true;
    for (const running of children) void stopOne(running);
  };

  const firstUnasked = Promise.race(
    children.map((running) => running.exited.then((exit) => (stopping ? undefined : exit))),
  );
  const first = await Promise.race([
    options.stopped.then((signal) => ({ signal })),
    firstUnasked.then((exit) => ({ exit })),
  ]);
  stopAll();
  const exits = await Promise.all(children.map((running) => running.exited));
  for (const signal of options.forward ?? []) process.off(signal, forward);
  if ('exit' in first && first.exit !== undefined) {
    return { kind: 'died', first: first.exit, exits };
  }
  return { kind: 'stopped', signal: 'signal' in first ? first.signal : 'exit', exits };
}
