/** Python's int() and json.dumps, held to the system Python's answers for the same inputs. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { pythonInt, pythonJsonDumps, pythonStrip } from '../../src/python-compat/index.ts';
import { skipOutsideCi } from '../support/skip-outside-ci.ts';

const PYTHON = '/usr/bin/python3';
const skip = skipOutsideCi(existsSync(PYTHON) ? undefined : `${PYTHON} is missing`);

function python<T>(script: string): T {
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { encoding: 'utf8' })) as T;
}

const TEXTS = [
  '1',
  ' 12 ',
  '+7',
  '-0',
  '007',
  '1_000',
  '1__0',
  '_1',
  '1_',
  '',
  ' ',
  '1.5',
  '1e3',
  '0x10',
  '\t\n 42 \u3000',
  '\x1c5\x1f',
  '١٢٣',
  '𝟙𝟚',
  '١_٢',
  '99999999999999999999999999',
  '- 1',
  '+-1',
];

describe('pythonInt', () => {
  it('reads what int() reads, and refuses what it refuses', { skip }, () => {
    const real = python<(string | null)[]>(`
import json
out = []
for text in json.loads(${JSON.stringify(JSON.stringify(TEXTS))}):
    try:
        out.append(str(int(text)))
    except ValueError:
        out.append(None)
print(json.dumps(out))
`);
    TEXTS.forEach((text, i) => {
      const ours = pythonInt(text);
      assert.equal(ours === undefined ? null : ours.toString(), real[i], JSON.stringify(text));
    });
  });

  it('strips what str.strip() strips', { skip }, () => {
    const texts = ['\x1c a \x85', '\u00a0b\u2028', '\ufeffc'];
    const real = python<string[]>(
      `import json; print(json.dumps([t.strip() for t in json.loads(${JSON.stringify(JSON.stringify(texts))})]))`,
    );
    assert.deepEqual(texts.map(pythonStrip), real);
  });
});

describe('pythonJsonDumps', () => {
  it('writes what json.dumps writes', { skip }, () => {
    const values = [
      {
        faultcode: 'Client',
        faultstring: 'Node é "x" \\ \n could not be found 😀',
        debuginfo: null,
      },
      { code: 406, title: 'Not Acceptable', description: '' },
      [1, -2.5, true, false, null, 'a\u0001b', { nested: [{}] }],
    ];
    const real = python<string[]>(
      `import json; print(json.dumps([json.dumps(v) for v in json.loads(${JSON.stringify(JSON.stringify(values))})]))`,
    );
    assert.deepEqual(values.map(pythonJsonDumps), real);
  });
});
