/** Each process's CPU from /proc, and a step's share of a core per process. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  CpuSampler,
  cpuPercentBetween,
  cpuSecondsFromStat,
  LOAD_GENERATOR,
  MACHINE,
  machineBusySecondsFromStat,
} from '../../src/rehearsal/process-cpu.ts';

describe('machineBusySecondsFromStat', () => {
  it('adds every kind of time of the cpu line but idle and iowait', () => {
    const stat = 'cpu  100 5 50 1000 30 2 3 10 0 0\ncpu0 50 2 25 500 15 1 1 5 0 0\n';
    assert.equal(machineBusySecondsFromStat(stat), 1.7);
  });
});

describe('cpuSecondsFromStat', () => {
  it('reads user + system ticks after a command name holding spaces and parentheses', () => {
    // Fields 14 and 15 (utime, stime) of proc(5): 250 and 50 ticks.
    const stat = '4242 (node (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0';
    assert.equal(cpuSecondsFromStat(stat), 3);
  });

  it('reads this process', () => {
    const seconds = cpuSecondsFromStat(readFileSync('/proc/self/stat', 'utf8'));
    assert.ok(seconds !== undefined && seconds > 0);
  });
});

describe('cpuPercentBetween', () => {
  it('gives each process its share of a core, busiest first, a new process from zero', () => {
    const before = new Map([
      ['api1', 10],
      ['cond1', 4],
    ]);
    const after = new Map([
      ['api1', 15],
      ['cond1', 4.5],
      ['api2', 2],
    ]);
    assert.deepEqual(Object.entries(cpuPercentBetween(before, after, 10)), [
      ['api1', 50],
      ['api2', 20],
      ['cond1', 5],
    ]);
  });
});

describe('CpuSampler', () => {
  /** A child that spends `spinMs` on the CPU, then says its own CPU time and waits. */
  const child = (spinMs: number) => {
    const script = `const end = Date.now() + ${spinMs}; while (Date.now() < end);
      const u = process.cpuUsage(); console.log((u.user + u.system) / 1e6);
      setTimeout(() => {}, 10000);`;
    const running = spawn(process.execPath, ['-e', script]);
    const said = new Promise<number>((resolve) =>
      running.stdout.once('data', (chunk) => resolve(Number(String(chunk)))),
    );
    return { running, said };
  };

  it("reads each process's CPU time as the process itself counts it", async () => {
    // Compared with what each child counts itself, not with the wall clock: on a loaded
    // machine a busy child may get much less than a core.
    const busy = child(800);
    const idle = child(0);
    try {
      const sampler = new CpuSampler();
      sampler.follow('busy', busy.running.pid);
      sampler.follow('idle', idle.running.pid);
      const [busySelf, idleSelf] = await Promise.all([busy.said, idle.said]);
      const seen = await sampler.snapshot();
      const busySeen = seen.get('busy') ?? 0;
      const idleSeen = seen.get('idle') ?? 0;
      // /proc counts in ticks of 10 ms, and a little more runs after each child's own count.
      assert.ok(Math.abs(busySeen - busySelf) < 0.15, `busy: ${busySeen} s seen, ${busySelf} s`);
      assert.ok(Math.abs(idleSeen - idleSelf) < 0.15, `idle: ${idleSeen} s seen, ${idleSelf} s`);
      assert.ok(busySelf > idleSelf, `busy ${busySelf} s, idle ${idleSelf} s`);
      assert.ok(seen.has(LOAD_GENERATOR));
      assert.ok(seen.has(MACHINE));
      assert.ok((seen.get(MACHINE) ?? 0) >= busySeen);
    } finally {
      busy.running.kill();
      idle.running.kill();
    }
  });
});
