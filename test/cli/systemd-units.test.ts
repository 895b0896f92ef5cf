/**
 * docs/systemd/*.service, the example unit files, against the code: each runs a real command
 * of `baton`, stops with SIGTERM, restarts, reloads with SIGHUP, and gives the process more
 * time to stop (TimeoutStopSec) than the drain its options allow by default, with room for
 * the requests in flight. Changing a drain default without the unit fails here, and so does
 * a new drain or shutdown option nobody has counted for the unit.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { BAREMETAL_API_CONFIG, BAREMETAL_CONFIG } from '../../src/baremetal/config-options.ts';
import { buildProgram } from '../../src/cli/main.ts';
import { PLACEMENT_CONFIG } from '../../src/placement/config-file.ts';
import type { ConfigSchema } from '../../src/service/index.ts';

const UNITS_DIR = fileURLToPath(new URL('../../docs/systemd', import.meta.url));

/** Seconds for the requests in flight (or the last RPC calls), leaving the table, closing. */
const MARGIN_SECONDS = 10;

type Unit = Map<string, Map<string, string>>;

/** systemd's unit syntax, as far as these files use it: sections, Key=Value, # comments. */
function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section: Map<string, string> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header?.[1] !== undefined) {
      section = new Map();
      unit.set(header[1], section);
      continue;
    }
    const eq = line.indexOf('=');
    assert.ok(section !== undefined && eq > 0, `not a unit line: ${line}`);
    section.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return unit;
}

/** systemd's time span: `90`, `90s`, `1min 30s`. */
function seconds(span: string): number {
  const units: Record<string, number> = { '': 1, s: 1, sec: 1, m: 60, min: 60, h: 3600 };
  let total = 0;
  for (const part of span.split(/\s+/)) {
    const match = /^(\d+)([a-z]*)$/.exec(part);
    const factor = units[match?.[2] ?? 'x'];
    assert.ok(match !== null && factor !== undefined, `time span ${span}`);
    total += Number(match[1]) * factor;
  }
  return total;
}

interface Expectation {
  readonly command: readonly string[];
  readonly schema: ConfigSchema;
  /** How long the process may take to stop on its defaults, by the options it counts. */
  readonly bound: (value: (name: string) => number) => number;
  /** The options of the bound: `[section] name`. */
  readonly counted: readonly string[];
  /** Drain-like options of the schema that do not bound this process's stop, and why. */
  readonly notThisProcess: readonly string[];
}

const UNITS: Record<string, Expectation> = {
  'baton-placement.service': {
    command: ['placement', 'serve'],
    schema: PLACEMENT_CONFIG,
    // The check fails for drain_delay, then requests in flight get graceful_shutdown_timeout.
    bound: (value) =>
      value('[healthcheck] drain_delay') + value('[DEFAULT] graceful_shutdown_timeout'),
    counted: ['[healthcheck] drain_delay', '[DEFAULT] graceful_shutdown_timeout'],
    notThisProcess: [],
  },
  'baton-baremetal-api.service': {
    command: ['baremetal', 'api'],
    schema: BAREMETAL_API_CONFIG,
    // The check fails for drain_delay, then requests in flight get graceful_shutdown_timeout.
    bound: (value) =>
      value('[healthcheck] drain_delay') + value('[DEFAULT] graceful_shutdown_timeout'),
    counted: ['[healthcheck] drain_delay', '[DEFAULT] graceful_shutdown_timeout'],
    // The conductor's own (the API shares ironic.conf's options).
    notThisProcess: ['[conductor] graceful_shutdown_timeout'],
  },
  'baton-baremetal-conductor.service': {
    command: ['baremetal', 'conductor'],
    schema: BAREMETAL_CONFIG,
    // Offline, then RPC kept for hash_ring_reset_interval + 1 s, the work within
    // graceful_shutdown_timeout of the signal: the sum is a safe reading.
    bound: (value) =>
      value('[DEFAULT] graceful_shutdown_timeout') +
      value('[DEFAULT] hash_ring_reset_interval') +
      1 +
      value('[healthcheck] drain_delay'),
    counted: [
      '[DEFAULT] graceful_shutdown_timeout',
      '[DEFAULT] hash_ring_reset_interval',
      '[healthcheck] drain_delay',
      // No default of its own: [DEFAULT] graceful_shutdown_timeout's when unset.
      '[conductor] graceful_shutdown_timeout',
    ],
    notThisProcess: [],
  },
};

/** The default of `[section] name` in the schema, as a number (0 when it has none). */
function defaultOf(schema: ConfigSchema): (name: string) => number {
  return (name) => {
    const option = schema.options.find((o) => `[${o.section}] ${o.name}` === name);
    assert.ok(option !== undefined, `no option ${name}`);
    const value = schema.defaults[option.field];
    if (value === undefined) return 0;
    assert.equal(typeof value, 'number', `${name}: ${String(value)}`);
    return value as number;
  };
}

function findCommand(program: Command, path: readonly string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const name of path) command = command?.commands.find((c) => c.name() === name);
  return command;
}

describe('docs/systemd unit files', () => {
  it('are one per server binary', () => {
    const files = readdirSync(UNITS_DIR).filter((name) => name.endsWith('.service'));
    assert.deepEqual(files.sort(), Object.keys(UNITS).sort());
  });

  for (const [file, expected] of Object.entries(UNITS)) {
    describe(file, () => {
      const unit = parseUnit(readFileSync(join(UNITS_DIR, file), 'utf8'));
      const service = unit.get('Service') ?? new Map<string, string>();

      it('runs the baton command itself, which exists', () => {
        const exec = service.get('ExecStart') ?? '';
        const argv = exec.split(/\s+/);
        assert.match(argv[0] ?? '', /^\/\S*\/node$/, 'node, by absolute path');
        assert.match(argv[1] ?? '', /\/bin\/baton\.mjs$/, 'no npm or npx between');
        assert.deepEqual(argv.slice(2, 2 + expected.command.length), [...expected.command]);
        assert.ok(
          findCommand(
            buildProgram(() => {}),
            expected.command,
          ),
          exec,
        );
      });

      it('stops with SIGTERM, restarts, and reloads with SIGHUP', () => {
        assert.equal(service.get('KillSignal'), 'SIGTERM');
        assert.match(service.get('Restart') ?? '', /^(on-failure|on-abnormal|always)$/);
        assert.equal(service.get('ExecReload'), '/bin/kill -HUP $MAINPID');
        // The primary of a worker pool forwards the signal itself.
        assert.equal(service.get('KillMode'), 'mixed');
        assert.equal(unit.get('Install')?.get('WantedBy'), 'multi-user.target');
      });

      it('gives the drain its configured time, and more', () => {
        const value = defaultOf(expected.schema);
        const bound = expected.bound(value);
        const timeout = seconds(service.get('TimeoutStopSec') ?? '0');
        assert.ok(
          timeout >= bound + MARGIN_SECONDS,
          `TimeoutStopSec ${timeout} s, but the drain may take ${bound} s plus ${MARGIN_SECONDS} s of margin`,
        );
      });

      it('counts every drain or shutdown option of its process', () => {
        const drainLike = expected.schema.options
          .filter((o) => /drain|shutdown|graceful/.test(o.name))
          .map((o) => `[${o.section}] ${o.name}`);
        const accounted = new Set([...expected.counted, ...expected.notThisProcess]);
        assert.deepEqual(
          drainLike.filter((name) => !accounted.has(name)),
          [],
          'an option the unit does not count: decide whether it bounds the stop, and update the unit and this test',
        );
      });
    });
  }
});
