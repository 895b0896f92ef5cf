/**
 * runChildGroup with real child processes (small node scripts): readiness from stdout, stop
 * on request, a child that dies stopping the others, and a stop that waits for a starting
 * child's handler instead of killing it mid-start.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ChildSpec,
  exitSentence,
  type GroupIo,
  runChildGroup,
} from '../../src/service/child-processes.ts';

/**
 * A child that waits `delayMs`, then installs a SIGTERM handler (exit 0 after `stopMs`) and
 * prints `ready NAME`; with `dieMs` it exits 3 that long after being ready.
 */
function child(
  name: string,
  options: { delayMs?: number; dieMs?: number; neverReady?: boolean } = {},
): ChildSpec {
  const script = `
    setTimeout(() => {
      ${options.neverReady === true ? 'return;' : ''}
      process.on('SIGTERM', () => { console.log('bye ${name}'); setTimeout(() => process.exit(0), 50); });
      console.log('ready ${name}');
      ${options.dieMs === undefined ? '' : `setTimeout(() => process.exit(3), ${options.dieMs});`}
    }, ${options.delayMs ?? 0});
    setInterval(() => {}, 1000);`;
  return {
    name,
    command: process.execPath,
    args: ['-e', script],
    ready: (line) => /^ready (\S+)$/.exec(line)?.[1],
  };
}

function recorder(): GroupIo & {
  lines: string[];
  readyCalls: { name: string; value: string }[][];
  allReady: Promise<void>;
} {
  const lines: string[] = [];
  const readyCalls: { name: string; value: string }[][] = [];
  let resolve: () => void = () => {};
  const allReady = new Promise<void>((r) => {
    resolve = r;
  });
  return {
    lines,
    readyCalls,
    allReady,
    line: (name, line) => lines.push(`${name}: ${line}`),
    ready: (announced) => {
      readyCalls.push([...announced]);
      resolve();
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function stopSignal(): { stopped: Promise<string>; stop: (signal: string) => void } {
  let stop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  return { stopped, stop };
}

describe('runChildGroup', () => {
  it('reports every child ready once, in order, and stops them all on request', async () => {
    const io = recorder();
    const { stopped, stop } = stopSignal();
    const running = runChildGroup([child('a', { delayMs: 100 }), child('b')], io, { stopped });
    await io.allReady;
    assert.deepEqual(io.readyCalls, [
      [
        { name: 'a', value: 'a' },
        { name: 'b', value: 'b' },
      ],
    ]);
    stop('SIGTERM');
    const outcome = await running;
    assert.equal(outcome.kind, 'stopped');
    assert.deepEqual(
      outcome.exits.map((e) => [e.name, e.code, e.signal]),
      [
        ['a', 0, null],
        ['b', 0, null],
      ],
    );
    // Each got SIGTERM and drained: its last line was read before it counted as ended.
    assert.ok(io.lines.includes('a: bye a') && io.lines.includes('b: bye b'), io.lines.join());
  });

  it('stops the others when one ends unasked, and names it', async () => {
    const io = recorder();
    const outcome = await runChildGroup([child('steady'), child('flaky', { dieMs: 200 })], io, {
      stopped: new Promise(() => {}),
    });
    assert.equal(outcome.kind, 'died');
    assert.ok(outcome.kind === 'died');
    assert.deepEqual(outcome.first, { name: 'flaky', code: 3, signal: null });
    assert.equal(exitSentence(outcome.first), 'flaky exited (status 3)');
    assert.deepEqual(
      outcome.exits.map((e) => [e.name, e.code]),
      [
        ['steady', 0],
        ['flaky', 3],
      ],
    );
    assert.ok(io.lines.includes('steady: bye steady'));
  });

  it('a child that fails to start stops the others before they are all ready', async () => {
    const io = recorder();
    const failing: ChildSpec = {
      name: 'broken',
      command: process.execPath,
      args: ['-e', 'process.exit(1)'],
      ready: () => undefined,
    };
    const outcome = await runChildGroup([child('slow', { delayMs: 300 }), failing], io, {
      stopped: new Promise(() => {}),
    });
    assert.equal(outcome.kind, 'died');
    assert.ok(outcome.kind === 'died');
    assert.equal(outcome.first.name, 'broken');
    assert.deepEqual(io.readyCalls, [], 'never all ready');
    // The starting child was let finish its start, then stopped through its handler.
    assert.deepEqual(outcome.exits[0], { name: 'slow', code: 0, signal: null });
  });

  it('passes the signals it forwards on to every child', async () => {
    const io = recorder();
    const { stopped, stop } = stopSignal();
    const hup: ChildSpec = {
      ...child('h'),
      args: [
        '-e',
        `process.on('SIGUSR2', () => console.log('reloaded'));
         process.on('SIGTERM', () => process.exit(0));
         console.log('ready h'); setInterval(() => {}, 1000);`,
      ],
    };
    const running = runChildGroup([hup], io, { stopped, forward: ['SIGUSR2'] });
    await io.allReady;
    process.kill(process.pid, 'SIGUSR2');
    for (let i = 0; i < 100 && !io.lines.includes('h: reloaded'); i++) await sleep(50);
    stop('SIGTERM');
    await running;
    assert.deepEqual(io.lines, ['h: ready h', 'h: reloaded']);
    assert.equal(process.listenerCount('SIGUSR2'), 0, 'the handler is removed once all ended');
  });

  it('a stop during a start waits for the child to be ready; one that never is gets killed', async () => {
    const io = recorder();
    const outcome = await runChildGroup(
      [child('late', { delayMs: 300 }), child('stuck', { neverReady: true })],
      io,
      { stopped: Promise.resolve('SIGINT'), startTimeoutMs: 1500 },
    );
    assert.equal(outcome.kind, 'stopped');
    assert.deepEqual(
      outcome.exits.map((e) => [e.name, e.code, e.signal]),
      [
        ['late', 0, null],
        ['stuck', null, 'SIGKILL'],
      ],
    );
  });
});
