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
  it('sees a busy child use about a core and an idle one use nothing', async () => {
    const busy = spawn(process.execPath, [
      '-e',
      'const end = Date.now() + 5000; while (Date.now() < end);',
    ]);
    const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    try {
      const sampler = new CpuSampler();
      sampler.follow('busy', busy.pid);
      sampler.follow('idle', idle.pid);
      // Past node's own start, which costs CPU in both.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = await sampler.snapshot();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const shares = cpuPercentBetween(before, await sampler.snapshot(), 1.5);
      assert.ok((shares.busy ?? 0) >= 40, `busy: ${shares.busy}`);
      assert.ok((shares.idle ?? 0) <= 5, `idle: ${shares.idle}`);
      const last = await sampler.snapshot();
      assert.ok(last.has(LOAD_GENERATOR));
      assert.ok((shares[MACHINE] ?? 0) >= (shares.busy ?? 0), JSON.stringify(shares));
      assert.ok(last.has(MACHINE));
    } finally {
      busy.kill();
      idle.kill();
    }
  });
});
