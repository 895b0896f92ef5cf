/**
 * `baton db online-migrations` off a terminal: a summary line every few seconds (rows done,
 * rate, ETA) and one when a migration finishes, not a line per batch; a pause between
 * batches; a maximum run time that ends with exit 1 ("more remains") and says so. On each
 * backend, with enough rows for a dozen batches; the clock is fake and advances only when
 * the command pauses, so nothing is timed.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { runCli } from '../../src/cli/main.ts';
import type { ProgressEnv } from '../../src/cli/progress-env.ts';
import { forEachBackend } from '../db/support/backends.ts';

const CONSUMERS = 120;

/** A progress env whose clock moves only by the pauses it is asked for (a terminal if `tty`). */
function fakeEnv(tty = false): { env: ProgressEnv; pauses: number[]; drawn: () => string } {
  let clock = 0;
  const pauses: number[] = [];
  let drawn = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        drawn += String(chunk);
        done();
      },
    }),
    { isTTY: tty, columns: 100 },
  );
  const env: ProgressEnv = {
    tty,
    stream,
    now: () => clock,
    sleep: async (ms) => {
      pauses.push(ms);
      clock += ms;
    },
    every: () => () => {},
    intervalMs: 5_000,
  };
  return { env, pauses, drawn: () => drawn };
}

async function baton(env: ProgressEnv, ...argv: string[]) {
  let out = '';
  let err = '';
  const status = await runCli(argv, {
    out: (line) => (out += `${line}\n`),
    err: (text) => (err += text),
    progress: env,
  });
  return { status, out, err };
}

forEachBackend('baton db online-migrations: progress off a terminal', (ctx) => {
  // biome-ignore lint/suspicious/noExplicitAny: placement's tables
  const db = () => ctx.db().kysely as Kysely<any>;
  const consumers = async () =>
    Number(
      (
        await db()
          .selectFrom('consumers')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('summary lines every 5 s, a pause between batches, and a time limit that leaves the rest for a re-run', async () => {
    const upgraded = await baton(
      fakeEnv().env,
      'db',
      'upgrade',
      '--service',
      'placement',
      '--db',
      ctx.url(),
    );
    assert.equal(upgraded.status, 0, upgraded.err);
    await db()
      .insertInto('allocations')
      .values(
        Array.from({ length: CONSUMERS }, (_, i) => ({
          resource_provider_id: 1,
          consumer_id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
          resource_class_id: 0,
          used: 1,
        })),
      )
      .execute();
    const args = ['db', 'online-migrations', '--service', 'placement', '--db', ctx.url()];
    const pacing = ['--batch-size', '10', '--sleep-between-batches', '2'];

    // Batches at 0, 2, 4, 6 and 8 s; after the next pause (10 s) the 9 s are up.
    const limited = fakeEnv();
    const first = await baton(limited.env, ...args, ...pacing, '--max-run-seconds', '9');
    assert.equal(first.status, 1, first.out + first.err);
    assert.deepEqual(limited.pauses, [2_000, 2_000, 2_000, 2_000, 2_000]);
    const firstLines = first.out.split('\n');
    assert.deepEqual(
      firstLines.filter((line) => line.startsWith('create_incomplete_consumers:')),
      ['create_incomplete_consumers: 40 of 120 rows (33%), 7 rows/s, ETA 12 s'],
    );
    assert.match(first.out, /\| create_incomplete_consumers \|\s+120 \|\s+50 \|\s+70 \| more\s+\|/);
    assert.match(first.out, /the maximum run time was reached\. Please re-run\./);
    assert.match(
      first.out,
      /Stopped after --max-run-seconds 9 with rows left to migrate; run the command again/,
    );
    assert.equal(await consumers(), 50);
    assert.equal(limited.drawn(), '', 'no bar off a terminal');

    // The rest: 7 batches at 0, 2, …, 12 s; a line at 6 s, then the one that says it is done.
    const rest = fakeEnv();
    const second = await baton(rest.env, ...args, ...pacing);
    assert.equal(second.status, 0, second.out + second.err);
    assert.deepEqual(
      second.out.split('\n').filter((line) => line.startsWith('create_incomplete_consumers:')),
      [
        'create_incomplete_consumers: 40 of 70 rows (57%), 7 rows/s, ETA 5 s',
        'create_incomplete_consumers: done, 70 rows in 12 s (6 rows/s)',
      ],
    );
    assert.match(second.out, /Data migrations have completed\./);
    assert.equal(await consumers(), CONSUMERS);
  });

  test('on a terminal: the progress bar, and no summary lines', async () => {
    await baton(fakeEnv().env, 'db', 'upgrade', '--service', 'placement', '--db', ctx.url());
    await db()
      .insertInto('allocations')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          resource_provider_id: 1,
          consumer_id: `10000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
          resource_class_id: 0,
          used: 1,
        })),
      )
      .execute();
    const terminal = fakeEnv(true);
    const run = await baton(
      terminal.env,
      ...[
        'db',
        'online-migrations',
        '--service',
        'placement',
        '--db',
        ctx.url(),
        '--batch-size',
        '10',
      ],
    );
    assert.equal(run.status, 0, run.out + run.err);
    assert.doesNotMatch(run.out, /^create_incomplete_consumers:/m);
    assert.match(terminal.drawn(), /create_incomplete_consumers \[=+\] 30\/30 rows \| 100%/);
    assert.doesNotMatch(terminal.drawn(), /update_to_latest_versions/, 'no bar for nothing to do');
  });

  test('bad pacing values are usage errors', async () => {
    const args = ['db', 'online-migrations', '--service', 'placement', '--db', ctx.url()];
    for (const [flag, value, message] of [
      [
        '--sleep-between-batches',
        '-1',
        /--sleep-between-batches must be a number of seconds, 0 or more, not '-1'/,
      ],
      ['--sleep-between-batches', 'soon', /--sleep-between-batches must be a number of seconds/],
      ['--max-run-seconds', '0', /--max-run-seconds must be a positive number of seconds, not '0'/],
    ] as const) {
      const result = await baton(fakeEnv().env, ...args, flag, value);
      assert.equal(result.status, 64, `${flag} ${value}`);
      assert.match(result.err, message);
    }
  });
});
