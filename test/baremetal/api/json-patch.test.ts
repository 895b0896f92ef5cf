/**
 * JSON PATCH as the real Ironic applies it: the same documents and patches go through Baton's
 * applyJsonPatch and the real `ironic.api.controllers.v1.utils.apply_jsonpatch` (python-jsonpatch
 * 1.32), and the results or the refusals (status and text) must be the same.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyJsonPatch, type PatchOperation } from '../../../src/baremetal/api/json-patch.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';

const DOC = {
  name: 'n1',
  extra: { a: 1, list: [1, 2, 3], nested: { x: 'y' } },
  properties: {},
  driver_info: { ipmi: { address: 'a' } },
  description: 'text',
  instance_uuid: null,
};

const CASES: readonly (readonly PatchOperation[])[] = [
  [{ op: 'add', path: '/extra/b', value: { c: [1] } }],
  [{ op: 'replace', path: '/extra/a', value: 2 }],
  [{ op: 'remove', path: '/extra/a' }],
  [{ op: 'remove', path: '/extra/zz' }],
  [{ op: 'replace', path: '/extra/zz', value: 1 }],
  [{ op: 'add', path: '/extra/zz/y', value: 1 }],
  [{ op: 'add', path: '/extra/list/1', value: 9 }],
  [{ op: 'add', path: '/extra/list/-', value: 9 }],
  [{ op: 'add', path: '/extra/list/7', value: 9 }],
  [{ op: 'add', path: '/extra/list/x', value: 9 }],
  [{ op: 'replace', path: '/extra/list/3', value: 9 }],
  [{ op: 'replace', path: '/extra/list/-', value: 9 }],
  [{ op: 'remove', path: '/extra/list/0' }],
  [{ op: 'remove', path: '/extra/list/5' }],
  [{ op: 'add', path: '/description/x', value: 1 }],
  [{ op: 'replace', path: '/description/0', value: 1 }],
  [{ op: 'add', path: '/instance_uuid/x', value: 1 }],
  [{ op: 'add', path: '/bogus', value: 1 }],
  [{ op: 'add', path: '/name', value: 'n2' }],
  [{ op: 'add', path: '/driver_info/ipmi/port', value: 623 }],
  [{ op: 'add', path: '/extra/b' } as PatchOperation],
  [{ op: 'replace', path: '/name' } as PatchOperation],
  [
    { op: 'add', path: '/extra/b', value: 1 },
    { op: 'remove', path: '/extra/b' },
    { op: 'remove', path: '/extra/b' },
  ],
];

type Outcome = { doc: unknown } | { status: number; error: string };

function baton(patch: readonly PatchOperation[]): Outcome {
  try {
    return { doc: applyJsonPatch(DOC, patch) };
  } catch (error) {
    return { status: (error as { code: number }).code, error: (error as Error).message };
  }
}

describe('JSON PATCH against the real apply_jsonpatch', () => {
  const skip = ironicPythonMissing();

  it('leaves the document it is given as it was', () => {
    const before = JSON.stringify(DOC);
    applyJsonPatch(DOC, [{ op: 'replace', path: '/extra/a', value: 5 }]);
    assert.equal(JSON.stringify(DOC), before);
  });

  it('applies and refuses as the real one does, in its words', { skip }, async () => {
    const real = await runIronicPython<Outcome[]>(`
import json
from ironic.api.controllers.v1 import utils
doc = json.loads(${JSON.stringify(JSON.stringify(DOC))})
out = []
for patch in json.loads(${JSON.stringify(JSON.stringify(CASES))}):
    try:
        out.append({'doc': utils.apply_jsonpatch(doc, patch)})
    except Exception as e:
        out.append({'status': getattr(e, 'code', 500), 'error': str(e)})
print(json.dumps(out))
`);
    CASES.forEach((patch, i) => {
      assert.deepEqual(baton(patch), real[i], JSON.stringify(patch));
    });
  });
});
