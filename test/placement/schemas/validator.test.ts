/**
 * Validation errors worded and chosen as Python's jsonschema 4.10 does in the real service
 * (texts below are the real library's output for the same schema and document).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PUT_ALLOCATIONS_V1_0,
  PUT_ALLOCATIONS_V1_12,
  PUT_ALLOCATIONS_V1_38,
} from '../../../src/placement/schemas/allocation.ts';
import { pythonPformat, pythonRepr } from '../../../src/placement/schemas/python-repr.ts';
import { isUuidLike, schemaProblem } from '../../../src/placement/schemas/validator.ts';

const U1 = 'b0000000-0000-4000-8000-000000000001';

describe('pythonPformat', () => {
  it('lays out like pprint.pformat(width=72): sorted keys, split strings, float reprs', () => {
    const value = { maximum: 3.40282e38, x: 1e-5, y: 0.25, long: 'word '.repeat(20) };
    assert.equal(
      pythonPformat(value),
      "{'long': 'word word word word word word word word word word word word '\n         'word word word word word word word word ',\n 'maximum': 3.40282e+38,\n 'x': 1e-05,\n 'y': 0.25}",
    );
    assert.equal(
      pythonPformat('word '.repeat(20)),
      "('word word word word word word word word word word word word word '\n 'word word word word word word word ')",
    );
  });

  it('keeps repr() in the document order, as messages print instances', () => {
    assert.equal(pythonRepr({ b: [true, null], a: "it's" }), "{'b': [True, None], 'a': \"it's\"}");
  });
});

describe('schemaProblem', () => {
  it('names every unexpected property, sorted', () => {
    const data = {
      allocations: [{ resource_provider: { uuid: U1 }, resources: { VCPU: 1 } }],
      project_id: 'p',
      user_id: 'u',
    };
    assert.equal(
      schemaProblem(PUT_ALLOCATIONS_V1_0, data),
      "Additional properties are not allowed ('project_id', 'user_id' were unexpected)\n\nFailed validating 'additionalProperties' in schema:\n    {'additionalProperties': False,\n     'properties': {'allocations': {'items': {'additionalProperties': False,\n                                              'properties': {'resource_provider': {'additionalProperties': False,\n                                                                                   'properties': {'uuid': {'format': 'uuid',\n                                                                                                           'type': 'string'}},\n                                                                                   'required': ['uuid'],\n                                                                                   'type': 'object'},\n                                                             'resources': {'additionalProperties': False,\n                                                                           'minProperties': 1,\n                                                                           'patternProperties': {'^[A-Z0-9_]+$': {'minimum': 1,\n                                                                                                                  'type': 'integer'}},\n                                                                           'type': 'object'}},\n                                              'required': ['resource_provider',\n                                                           'resources'],\n                                              'type': 'object'},\n                                    'minItems': 1,\n                                    'type': 'array'}},\n     'required': ['allocations'],\n     'type': 'object'}\n\nOn instance:\n    {'allocations': [{'resource_provider': {'uuid': 'b0000000-0000-4000-8000-000000000001'},\n                      'resources': {'VCPU': 1}}],\n     'project_id': 'p',\n     'user_id': 'u'}",
    );
  });

  it('checks keywords in the schema order (pattern before minLength)', () => {
    const data = {
      allocations: {},
      project_id: 'p',
      user_id: 'u',
      consumer_generation: null,
      consumer_type: '',
    };
    assert.equal(
      schemaProblem(PUT_ALLOCATIONS_V1_38, data),
      "'' does not match '^[A-Z0-9_]+$'\n\nFailed validating 'pattern' in schema['properties']['consumer_type']:\n    {'maxLength': 255,\n     'minLength': 1,\n     'pattern': '^[A-Z0-9_]+$',\n     'type': 'string'}\n\nOn instance['consumer_type']:\n    ''",
    );
  });

  it('prefers the shallowest error in the document', () => {
    const data = { allocations: { [U1]: { resources: { VCPU: 0 } } }, project_id: 'p' };
    assert.equal(
      schemaProblem(PUT_ALLOCATIONS_V1_12, data),
      "'user_id' is a required property\n\nFailed validating 'required' in schema:\n    {'additionalProperties': False,\n     'properties': {'allocations': {'additionalProperties': False,\n                                    'minProperties': 1,\n                                    'patternProperties': {'^[0-9a-fA-F-]{36}$': {'additionalProperties': False,\n                                                                                 'properties': {'generation': {'type': 'integer'},\n                                                                                                'resources': {'additionalProperties': False,\n                                                                                                              'minProperties': 1,\n                                                                                                              'patternProperties': {'^[A-Z0-9_]+$': {'minimum': 1,\n                                                                                                                                                     'type': 'integer'}},\n                                                                                                              'type': 'object'}},\n                                                                                 'required': ['resources'],\n                                                                                 'type': 'object'}},\n                                    'type': 'object'},\n                    'project_id': {'maxLength': 255,\n                                   'minLength': 1,\n                                   'type': 'string'},\n                    'user_id': {'maxLength': 255,\n                                'minLength': 1,\n                                'type': 'string'}},\n     'required': ['allocations', 'project_id', 'user_id'],\n     'type': 'object'}\n\nOn instance:\n    {'allocations': {'b0000000-0000-4000-8000-000000000001': {'resources': {'VCPU': 0}}},\n     'project_id': 'p'}",
    );
  });

  it('descends into anyOf only when one branch explains best', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 200 },
        parent_provider_uuid: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
      },
      required: ['name'],
      additionalProperties: false,
    };
    assert.equal(
      schemaProblem(schema, { name: 'x', parent_provider_uuid: 'nope' }),
      "'nope' is not a 'uuid'\n\nFailed validating 'format' in schema[0]:\n    {'format': 'uuid', 'type': 'string'}\n\nOn instance:\n    'nope'",
    );
    assert.equal(
      schemaProblem(schema, { name: 'x', parent_provider_uuid: 5 }),
      "5 is not valid under any of the given schemas\n\nFailed validating 'anyOf' in schema['properties']['parent_provider_uuid']:\n    {'anyOf': [{'format': 'uuid', 'type': 'string'}, {'type': 'null'}]}\n\nOn instance['parent_provider_uuid']:\n    5",
    );
    assert.equal(schemaProblem(schema, { name: 'x', parent_provider_uuid: null }), undefined);
  });
});

describe('isUuidLike', () => {
  it('accepts what oslo accepts', () => {
    for (const ok of [U1, U1.toUpperCase(), U1.replaceAll('-', ''), `{${U1}}`, `urn:uuid:${U1}`]) {
      assert.equal(isUuidLike(ok), true, ok);
    }
    for (const bad of ['nope', `${U1}0`, `x{${U1}}`, `URN:UUID:${U1}`, 5, null]) {
      assert.equal(isUuidLike(bad), false, String(bad));
    }
  });
});
