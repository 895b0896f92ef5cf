/**
 * The healthcheck answers as oslo.middleware's healthcheck application does: the same
 * statuses, types and bodies for every Accept and method, checked against the real
 * middleware (Debian's python3-oslo.middleware, run with its disable_by_file backend, which
 * is what gives it an `OK`/`DISABLED BY FILE` reason); draining is Baton's own reason.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  DRAINING_REASON,
  HealthState,
  healthAnswer,
  preferredHealthType,
} from '../../src/service/healthcheck.ts';

const ACCEPTS = [
  '',
  'application/json',
  'text/html',
  'text/*',
  'application/json;q=0.5, text/html;q=0.4',
  '*/*',
  'text/html, application/json',
  'application/json, text/html',
  'image/png',
  'text/plain;q=0, */*;q=0.1',
  'application/*',
];

interface RealAnswer {
  readonly method: string;
  readonly accept: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** The real middleware's answers, with the disable file as it is now. */
function realAnswers(disableFile: string): RealAnswer[] {
  const script = `
import json, sys, webob
from oslo_middleware import healthcheck
path, accepts = sys.argv[1], json.loads(sys.argv[2])
app = healthcheck.Healthcheck.app_factory({}, backends='disable_by_file', disable_by_file_path=path)
out = []
for method in ['GET', 'HEAD', 'POST']:
    for accept in accepts:
        req = webob.Request.blank('/healthcheck', method=method)
        if accept: req.headers['Accept'] = accept
        r = req.get_response(app)
        out.append({'method': method, 'accept': accept, 'status': r.status_int,
                    'contentType': r.headers.get('Content-Type', ''), 'body': r.body.decode()})
print(json.dumps(out))
`;
  const output = execFileSync(
    '/usr/bin/python3',
    ['-c', script, disableFile, JSON.stringify(ACCEPTS)],
    { encoding: 'utf8' },
  );
  return JSON.parse(output) as RealAnswer[];
}

test('healthy and disabled by file: the real middleware answers each Accept and method the same', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'healthcheck-'));
  const disableFile = join(dir, 'disabled');
  try {
    for (const disabled of [false, true]) {
      const state = new HealthState({ healthcheckDisableByFilePath: disableFile });
      if (disabled) await writeFile(disableFile, '');
      const answers = realAnswers(disableFile);
      assert.equal(answers[0]?.body, disabled ? 'DISABLED BY FILE' : 'OK');
      for (const real of answers) {
        const ours = state.answer(real.method, real.accept === '' ? undefined : real.accept);
        const where = `${real.method} Accept '${real.accept}' (disabled: ${disabled})`;
        assert.equal(ours.status, real.status, where);
        assert.equal(ours.body, real.body, where);
        assert.equal(ours.contentType, real.contentType, where);
      }
      if (disabled) await rm(disableFile);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('draining after a stop signal: 503 DRAINING, whatever the disable file says', () => {
  const state = new HealthState();
  assert.equal(state.answer('GET', undefined).status, 200);
  assert.equal(state.answer('GET', undefined).body, 'OK');
  state.startDraining();
  assert.equal(state.draining, true);
  assert.deepEqual(state.answer('GET', undefined), {
    status: 503,
    contentType: 'text/plain; charset=UTF-8',
    body: DRAINING_REASON,
  });
  assert.equal(state.answer('HEAD', undefined).status, 503);
  assert.deepEqual(JSON.parse(state.answer('GET', 'application/json').body), {
    detailed: false,
    reasons: ['DRAINING'],
  });
});

test('the HTML body escapes its reason; an unusable Accept falls back to text/plain', () => {
  assert.match(healthAnswer('<b>', 'GET', 'text/html').body, /<TD>&lt;b&gt;<\/TD>/);
  assert.equal(preferredHealthType('application/xml'), 'text/plain');
  assert.equal(preferredHealthType('text/html;q=abc'), 'text/plain');
});
