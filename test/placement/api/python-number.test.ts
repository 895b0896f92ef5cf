/**
 * Numbers as Python's json.dumps writes them: fixed cases, and random doubles and literals
 * checked against the machine's /usr/bin/python3 (the interpreter of the real service).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pythonJsonNumbers } from '../../../src/placement/api/python-json.ts';
import {
  PythonNumber,
  pythonFloat,
  pythonIntOfFloat,
  pythonJsonText,
  pythonLiteral,
} from '../../../src/placement/api/python-number.ts';

const PYTHON = '/usr/bin/python3';

describe('Python numbers in JSON', () => {
  it('writes floats as repr() does', () => {
    const cases: [number, string][] = [
      [4, '4.0'],
      [0, '0.0'],
      [-0, '-0.0'],
      [1.5, '1.5'],
      [1e15, '1000000000000000.0'],
      [1e16, '1e+16'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [2.5e-7, '2.5e-07'],
      [3.4e38, '3.4e+38'],
      [1.2345e-300, '1.2345e-300'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ];
    for (const [value, text] of cases) assert.equal(pythonFloat(value).json, text, `${value}`);
  });

  it('writes int() of a float with all its digits', () => {
    assert.equal(pythonIntOfFloat(7.9), 7);
    assert.equal(pythonIntOfFloat(-7.9), -7);
    assert.deepEqual(pythonIntOfFloat(8e29), new PythonNumber('799999999999999931465206857728'));
    assert.deepEqual(pythonIntOfFloat(2 ** 60), new PythonNumber('1152921504606846976'));
  });

  it('reads literals as json.loads types them', () => {
    assert.equal(pythonLiteral('4').json, '4');
    assert.equal(pythonLiteral('-0').json, '0');
    assert.equal(pythonLiteral('4.0').json, '4.0');
    assert.equal(pythonLiteral('1E2').json, '100.0');
    assert.equal(pythonLiteral('1e400').json, 'Infinity');
    assert.equal(
      pythonLiteral('100000000000000000000000000001').json,
      '100000000000000000000000000001',
    );
    assert.deepEqual(pythonJsonNumbers('{"a": [1, 1.0, NaN, {"b": -2.50}]}'), {
      a: [
        new PythonNumber('1'),
        new PythonNumber('1.0'),
        new PythonNumber('NaN'),
        { b: new PythonNumber('-2.5') },
      ],
    });
    assert.equal(pythonJsonNumbers('{"a": 1'), undefined);
  });

  it('writes JSON with those numbers as they are', () => {
    assert.equal(
      pythonJsonText({
        a: new PythonNumber('4.0'),
        b: [1, 'x', null],
        c: undefined,
        d: { e: true },
      }),
      '{"a":4.0,"b":[1,"x",null],"d":{"e":true}}',
    );
  });

  const available = existsSync(PYTHON);
  if (!available && process.env.CI === 'true') {
    it('has the interpreter to check against', () => assert.fail(`${PYTHON} is missing`));
  }
  it('matches the machine CPython on random doubles and literals', {
    skip: available ? false : `${PYTHON} is missing`,
  }, () => {
    const doubles: number[] = [];
    const view = new DataView(new ArrayBuffer(8));
    let seed = 11;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 3000; i++) {
      view.setUint32(0, next() * 2);
      view.setUint32(4, next() * 2);
      const random = view.getFloat64(0);
      if (Number.isFinite(random)) doubles.push(random);
      doubles.push((next() % 100000) / 10 ** (next() % 25), next() * 10 ** ((next() % 40) - 10));
    }
    const literals = doubles
      .slice(0, 2000)
      .map((d, i) => (i % 3 === 0 ? String(Math.trunc(d)) : String(d)));
    const script =
      'import json, sys\n' +
      'd, l = json.load(sys.stdin)\n' +
      'print(json.dumps([[json.dumps(float(x)) for x in d], [json.dumps(int(float(x))) for x in d], [json.dumps(json.loads(s)) for s in l]]))';
    const [floats, ints, echoed] = JSON.parse(
      execFileSync(PYTHON, ['-c', script], {
        input: JSON.stringify([doubles, literals]),
      }).toString(),
    ) as string[][];
    doubles.forEach((value, i) => {
      assert.equal(pythonFloat(value).json, floats?.[i], `float ${value}`);
      const int = pythonIntOfFloat(value);
      assert.equal(typeof int === 'number' ? String(int) : int.json, ints?.[i], `int ${value}`);
    });
    literals.forEach((literal, i) => {
      assert.equal(pythonLiteral(literal).json, echoed?.[i], `literal ${literal}`);
    });
  });
});
