/**
 * A service process's logger: the level from `--log-level` or `[DEFAULT] debug`, JSON or
 * oslo-style text, stderr or an appended file; every line names the binary and the worker.
 */
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  LogSettingsError,
  logSettingsOf,
  parseLogFormat,
  parseLogLevel,
} from '../../src/service/logging/log-settings.ts';
import { createServiceLogger } from '../../src/service/logging/service-logger.ts';
import { jsonLineAsText, textLogLine } from '../../src/service/logging/text-log-line.ts';

test('the level: --log-level wins, else debug gives debug, else info', () => {
  assert.equal(logSettingsOf({ debug: false, useJson: false }).level, 'info');
  assert.equal(logSettingsOf({ debug: true, useJson: false }).level, 'debug');
  assert.equal(logSettingsOf({ debug: true, useJson: false, logLevel: 'warn' }).level, 'warn');
  assert.equal(parseLogLevel('DEBUG'), 'debug');
  assert.throws(() => parseLogLevel('verbose'), LogSettingsError);
  assert.throws(
    () => parseLogLevel('verbose'),
    /--log-level must be one of trace, debug, info, warn, error, fatal, silent, not 'verbose'/,
  );
});

test('the format and the file: use_json, log_file under log_dir', () => {
  assert.equal(logSettingsOf({ debug: false, useJson: true }).format, 'json');
  assert.equal(logSettingsOf({ debug: false, useJson: false }).format, 'text');
  assert.equal(parseLogFormat('json'), 'json');
  assert.throws(() => parseLogFormat('xml'), /--log-format must be one of text, json/);
  const base = { debug: false, useJson: false };
  assert.equal(logSettingsOf(base).file, undefined);
  assert.equal(logSettingsOf({ ...base, logFile: ' ' }).file, undefined);
  assert.equal(
    logSettingsOf({ ...base, logFile: 'p.log', logDir: '/var/log/baton' }).file,
    '/var/log/baton/p.log',
  );
  assert.equal(
    logSettingsOf({ ...base, logFile: '/tmp/p.log', logDir: '/var/log' }).file,
    '/tmp/p.log',
  );
  assert.equal(logSettingsOf({ ...base, logFile: 'p.log' }).file, 'p.log');
});

function captured() {
  const lines: string[] = [];
  return { lines, sink: { write: (text: string) => lines.push(text) } };
}

test('JSON lines: level names, ISO time, pid, binary, worker; errors with their stack', () => {
  const { lines, sink } = captured();
  const { logger } = createServiceLogger(
    { level: 'info', format: 'json', file: undefined },
    { binary: 'placement-api', worker: 3 },
    sink,
  );
  logger.debug('not shown at info');
  logger.info({ request_id: 'req-1', status: 200 }, 'request');
  logger.error({ err: new TypeError('boom') }, 'unexpected error');
  assert.equal(lines.length, 2);
  const first = JSON.parse(lines[0] as string);
  assert.equal(first.level, 'info');
  assert.equal(first.binary, 'placement-api');
  assert.equal(first.worker, 3);
  assert.equal(first.pid, process.pid);
  assert.equal(first.request_id, 'req-1');
  assert.equal(first.msg, 'request');
  assert.match(first.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const second = JSON.parse(lines[1] as string);
  assert.equal(second.level, 'error');
  assert.equal(second.err.type, 'TypeError');
  assert.equal(second.err.message, 'boom');
  assert.match(second.err.stack, /TypeError: boom\n\s+at /);
});

test('text lines: oslo.log layout, fields as key=value, the stack below', () => {
  const { lines, sink } = captured();
  const service = createServiceLogger(
    { level: 'debug', format: 'text', file: undefined },
    { binary: 'placement-api' },
    sink,
  );
  service.logger.debug({ request_id: 'req-9', path: '/a b', status: 404 }, 'request');
  service.logger.error({ err: new Error('broken') }, 'unexpected error');
  service.setLevel('error');
  service.logger.info('dropped');
  assert.equal(lines.length, 2);
  assert.match(
    lines[0] as string,
    /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \d+ DEBUG placement-api \[req-9\] request path="\/a b" status=404\n$/,
  );
  assert.match(
    lines[1] as string,
    /ERROR placement-api \[-\] unexpected error\n {4}Error: broken\n\s+at /,
  );
});

test('textLogLine: the worker in the name, values quoted only when needed', () => {
  const line = textLogLine({
    level: 'warn',
    time: '2026-01-02T03:04:05.678Z',
    pid: 7,
    binary: 'ironic-conductor',
    worker: 2,
    msg: 'node n1',
    from: 'available',
    to: 'deploying',
    nested: { a: 1 },
    quoted: 'two words',
  });
  assert.equal(
    line,
    '2026-01-02 03:04:05.678 7 WARN ironic-conductor/worker-2 [-] node n1 from=available to=deploying nested={"a":1} quoted="two words"\n',
  );
  assert.equal(jsonLineAsText('not json\n'), 'not json\n');
});

test('a log file is appended to, flushed on demand; an unwritable one is refused at once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'logging-'));
  try {
    const file = join(dir, 'sub', 'placement.log');
    const first = createServiceLogger(
      { level: 'info', format: 'json', file },
      { binary: 'placement-api' },
    );
    first.logger.info('one');
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.flush();
    const second = createServiceLogger(
      { level: 'info', format: 'text', file },
      { binary: 'placement-api' },
    );
    second.logger.info('two');
    await new Promise((resolve) => setTimeout(resolve, 50));
    second.flush();
    const text = await readFile(file, 'utf8');
    const [json, plain] = text.trimEnd().split('\n');
    assert.equal(JSON.parse(json as string).msg, 'one');
    assert.match(plain as string, / INFO placement-api \[-\] two$/);

    const readOnly = join(dir, 'read-only.log');
    await writeFile(readOnly, '');
    await chmod(readOnly, 0o444);
    if (process.getuid?.() !== 0) {
      assert.throws(
        () =>
          createServiceLogger({ level: 'info', format: 'json', file: readOnly }, { binary: 'x' }),
        /cannot open log file .*read-only\.log: EACCES/,
      );
    }
    assert.throws(
      () =>
        createServiceLogger(
          { level: 'info', format: 'json', file: join(readOnly, 'below-a-file.log') },
          { binary: 'x' },
        ),
      /cannot open log file .*below-a-file\.log: (ENOTDIR|EEXIST)/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
