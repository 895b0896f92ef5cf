import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyResponse,
  isStateChanging,
  knowledgeAfterSuccess,
  outsideRange,
} from '../../src/microversion/client-negotiation.ts';
import { parseVersion } from '../../src/microversion/index.ts';

const v = parseVersion;

describe('classifyResponse: only a success says "old server"', () => {
  test('2xx and 3xx: versioned or not, by the headers', () => {
    for (const status of [200, 201, 204, 301, 304]) {
      assert.equal(
        classifyResponse({ status, aware: true, version: v('1.2') }, '1.2'),
        'versioned-success',
      );
      assert.equal(
        classifyResponse({ status, aware: false, version: undefined }, '1.2'),
        'unversioned-success',
      );
    }
  });

  test('every other error is handed back, with or without version headers', () => {
    for (const status of [400, 401, 403, 404, 405, 409, 500, 502, 503]) {
      for (const aware of [true, false]) {
        const version = aware ? v('1.2') : undefined;
        assert.equal(classifyResponse({ status, aware, version }, '1.2'), 'error', `${status}`);
      }
    }
  });

  test('a 406 is a version refusal unless it was made at the version sent', () => {
    const refused = (aware: boolean, version: string | undefined, sent: string) =>
      classifyResponse(
        { status: 406, aware, version: version === undefined ? undefined : v(version) },
        sent,
      );
    assert.equal(refused(false, undefined, '1.5'), 'version-refused');
    assert.equal(refused(true, undefined, '1.5'), 'version-refused'); // Ironic: min/max only
    assert.equal(refused(true, '1.0', '1.5'), 'version-refused'); // answered at the default
    assert.equal(refused(true, '1.5', '1.5'), 'error'); // an Accept it cannot serve
    assert.equal(refused(true, '1.39', 'latest'), 'error');
  });
});

describe('knowledgeAfterSuccess', () => {
  const range = { min: v('1.0'), max: v('1.20') };

  test('a stated range is stored, replacing a stale one or a "no microversions"', () => {
    assert.deepEqual(knowledgeAfterSuccess(undefined, range), { microversions: true, ...range });
    assert.deepEqual(knowledgeAfterSuccess({ microversions: false }, range), {
      microversions: true,
      ...range,
    });
    const stale = { microversions: true as const, min: v('1.0'), max: v('1.10') };
    assert.deepEqual(knowledgeAfterSuccess(stale, range), { microversions: true, ...range });
    const same = { microversions: true as const, ...range };
    assert.equal(knowledgeAfterSuccess(same, { ...range }), same);
  });

  test('without a range: "no microversions" is forgotten, a known range kept', () => {
    assert.equal(knowledgeAfterSuccess({ microversions: false }, undefined), undefined);
    assert.equal(knowledgeAfterSuccess(undefined, undefined), undefined);
    const known = { microversions: true as const, ...range };
    assert.equal(knowledgeAfterSuccess(known, undefined), known);
  });
});

test('isStateChanging: every method but the safe ones', () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'PROPFIND']) {
    assert.equal(isStateChanging(method), true, method);
  }
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'get']) {
    assert.equal(isStateChanging(method), false, method);
  }
});

test('outsideRange: latest never is, X.Y by the tuple order', () => {
  const range = { min: v('1.2'), max: v('1.10') };
  assert.equal(outsideRange('latest', range), false);
  assert.equal(outsideRange('1.2', range), false);
  assert.equal(outsideRange('1.9', range), false);
  assert.equal(outsideRange('1.10', range), false);
  assert.equal(outsideRange('1.1', range), true);
  assert.equal(outsideRange('1.11', range), true);
  assert.equal(outsideRange('2.0', range), true);
});
