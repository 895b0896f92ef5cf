/**
 * Request parameters checked as the real Ironic checks them: ironic.common.args' validators
 * and the body validators of nodes, ports, port groups and chassis get the same values in
 * Baton and in the installed real library; the converted values or the refusals (texts
 * included) must be the same. And the binding rules (unexpected and missing arguments).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NODE_VALIDATOR } from '../../../src/baremetal/api/node-schemas.ts';
import { args, type Validator } from '../../../src/baremetal/api/params.ts';
import { macAddressArg } from '../../../src/baremetal/api/port-args.ts';
import { PATCH_ARG } from '../../../src/baremetal/api/schema-args.ts';
import { ironicPythonMissing, runIronicPython } from '../support/ironic-python.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

const VALUES: readonly unknown[] = [
  'x',
  '',
  ' true ',
  'YES',
  'off',
  '0',
  '1',
  ' 12 ',
  '1_000',
  '-3',
  '1.5',
  '1e3',
  12,
  7.9,
  true,
  false,
  ['a', 'b'],
  { k: 'v' },
  'a,B, ,a,c',
  'node-1',
  'a b',
  'Node.Name~_x',
  '{1be26c0b-03f2-4d2e-ae87-c02d7f33c0a1}',
  '1BE26C0B03F24D2EAE87C02D7F33C0A1',
  'urn:uuid:1be26c0b-03f2-4d2e-ae87-c02d7f33c0a1',
  '1be26c0b-03f2-4d2e-ae87-c02d7f33c0a',
  'AA:BB:CC:DD:EE:FF',
  'aa-bb-cc-dd-ee-ff',
  'aa:bb:cc:dd:ee',
  'n'.repeat(256),
];

const VALIDATORS: Readonly<Record<string, Validator>> = {
  string: args.string,
  boolean: args.boolean,
  uuid: args.uuid,
  uuid_or_name: args.uuidOrName,
  integer: args.integer,
  string_list: args.stringList,
  mac_address: macAddressArg,
};

type Outcome = { value: unknown } | { error: string };

function outcome(check: Validator, name: string, value: unknown): Outcome {
  try {
    const result = check(name, value);
    return { value: result === undefined ? null : result };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const BODIES: readonly unknown[] = [
  {},
  { driver: 'fake-hardware' },
  { driver: 1 },
  { driver: 'x', bogus: 1, other: 2 },
  { driver: 'x', maintenance: 'maybe' },
  { driver: 'x', maintenance: 'on', retired: 'no' },
  { driver: 'x', uuid: 'abc' },
  { driver: 'x', chassis_uuid: 5 },
  { driver: 'x', properties: [] },
  { driver: 'x', description: 'd'.repeat(4097) },
  { driver: 'x', resource_class: 'r'.repeat(81) },
  [{ op: 'add', path: '/a' }],
  [{ op: 'move', path: '/a', from: '/b' }],
  [{ op: 'add', path: 'a', value: 1 }],
  [{ op: 'remove', path: '/a/b', value: 1, extra: 2 }],
  'text',
];

describe('parameter validators against ironic.common.args', () => {
  const skip = ironicPythonMissing();

  it('convert and refuse as the real ones', { skip }, async () => {
    const real = await runIronicPython<Record<string, Outcome[]>>(`
import json
from ironic.common import args
values = json.loads(${JSON.stringify(JSON.stringify(VALUES))})
checks = {'string': args.string, 'boolean': args.boolean, 'uuid': args.uuid,
          'uuid_or_name': args.uuid_or_name, 'integer': args.integer,
          'string_list': args.string_list, 'mac_address': args.mac_address}
out = {}
for name, check in checks.items():
    out[name] = []
    for value in values:
        try:
            out[name].append({'value': check('p', value)})
        except Exception as e:
            out[name].append({'error': str(e)})
print(json.dumps(out))
`);
    for (const [name, check] of Object.entries(VALIDATORS)) {
      VALUES.forEach((value, i) => {
        assert.deepEqual(
          outcome(check, 'p', value),
          real[name]?.[i],
          `${name}(${JSON.stringify(value)})`,
        );
      });
    }
  });

  it('check node bodies and patches as node_validator and args.patch do', { skip }, async () => {
    const real = await runIronicPython<{ node: Outcome[]; patch: Outcome[] }>(`
import copy
import json
from ironic.common import args
from ironic.api.controllers.v1 import node
bodies = json.loads(${JSON.stringify(JSON.stringify(BODIES))})
out = {'node': [], 'patch': []}
for body in bodies:
    for key, check in (('node', node.node_validator), ('patch', args.patch)):
        try:
            out[key].append({'value': check(key, copy.deepcopy(body))})
        except Exception as e:
            out[key].append({'error': str(e)})
print(json.dumps(out))
`);
    BODIES.forEach((body, i) => {
      // network_data's own schema is not carried (docs): no body here sets it.
      assert.deepEqual(
        outcome(NODE_VALIDATOR, 'node', body),
        echoedAsExcerpt(real.node[i]),
        JSON.stringify(body),
      );
      assert.deepEqual(
        outcome(PATCH_ARG, 'patch', body),
        echoedAsExcerpt(real.patch[i]),
        JSON.stringify(body),
      );
    });
  });
});

/**
 * The real error with the input it echoes cut as Baton cuts it: strings past 256 characters
 * shown as their start and `...` (src/python-compat/excerpt.ts, docs/security.md).
 */
function echoedAsExcerpt(real: Outcome | undefined): Outcome | undefined {
  if (real === undefined || !('error' in real) || typeof real.error !== 'string') return real;
  return {
    ...real,
    error: real.error.replace(
      /'([^'\\]{257,})'/g,
      (_m, text: string) => `'${text.slice(0, 256)}...'`,
    ),
  };
}

describe('parameter binding', () => {
  let api: BatonApi;
  const send = (url: string, body?: string, type = 'application/json') =>
    api.request({
      method: body === undefined ? 'GET' : 'PUT',
      url,
      headers: { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': type },
      ...(body === undefined ? {} : { payload: body }),
    });
  const faultOf = (body: string) =>
    (
      JSON.parse((JSON.parse(body) as { error_message: string }).error_message) as {
        faultstring: string;
      }
    ).faultstring;

  it('refuses names the handler does not take, then missing ones, then bad values', async () => {
    api = await startBatonApi();
    try {
      const created = await api.request({
        method: 'POST',
        url: '/v1/nodes',
        headers: { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': 'application/json' },
        payload: JSON.stringify({ driver: 'fake-hardware', name: 'bound' }),
      });
      assert.equal(created.statusCode, 201);
      const unexpected = await send('/v1/nodes?bogus=1');
      assert.equal(unexpected.statusCode, 400);
      assert.equal(faultOf(unexpected.body), 'Unexpected arguments: bogus');
      const fromBody = await send('/v1/nodes/bound/states/power', '{"target": "power on", "x": 1}');
      assert.equal(faultOf(fromBody.body), 'Unexpected arguments: x');
      const missing = await send('/v1/nodes/bound/states/power', '{}');
      assert.equal(faultOf(missing.body), 'Missing mandatory parameter: target');
      // A body that is not a JSON object gives no parameters (pecan reads the query only).
      const notObject = await send('/v1/nodes/bound/states/power', '["power on"]');
      assert.equal(faultOf(notObject.body), 'Missing mandatory parameter: target');
      // A form body's fields are parameters.
      const form = await send(
        '/v1/nodes/bound/states/power',
        'target=bogus',
        'application/x-www-form-urlencoded',
      );
      assert.equal(
        faultOf(form.body),
        `The requested action "bogus" can not be performed on node "bound" while it is in state "None".`,
      );
      // Not JSON: the real service answers Python's decoder message with a 500; Baton a 400.
      const broken = await api.request({
        method: 'POST',
        url: '/v1/chassis',
        headers: { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': 'application/json' },
        payload: '{bad',
      });
      assert.equal(broken.statusCode, 400);
      assert.equal(
        faultOf(broken.body),
        'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
      );
      const repeated = await send('/v1/nodes?limit=1&limit=2');
      assert.equal(faultOf(repeated.body), "Expected an integer for limit: ['1', '2']");
    } finally {
      await api.close();
    }
  });
});
