/** The bare metal object types: fingerprints, histories, conversions (no Python needed). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  Allocation,
  BAREMETAL_OBJECT_TYPES,
  BAREMETAL_OBJECTS,
  Chassis,
  Conductor,
  DeployTemplate,
  IRONIC_NAMESPACE,
  latestObjectVersions,
  Node,
  NodeInventory,
  type NodeObject,
  Port,
  Portgroup,
  Trait,
  TraitList,
  traitNames,
} from '../../../src/baremetal/objects/index.ts';
import {
  assertFingerprints,
  convertForDb,
  convertForWire,
  ObjectSerializer,
  toPrimitive,
  type VersionedObject,
} from '../../../src/objects/index.ts';
import { sampleObject } from '../support/object-samples.ts';

/**
 * A field changed without a version bump fails here. Bump the type's version (a history step
 * naming the change), then update its line.
 */
const FINGERPRINTS = {
  Node: '1.37-368f22dcd94d25820b9983a0445c498c06d2816146e7cc6687eb1ca5b60f8da2',
  Port: '1.11-564b9ddd6d0b6ea5adacef4f331650b3d077e629d2062e2c2ebed06d91402b98',
  Portgroup: '1.5-6a333b757a1fe2affe7c3222d33227d631a1f198ff4be6479c66c9b3e7f0c385',
  Chassis: '1.3-19de68649240a1d9567c80386df200b481dc457bd2b068ecf33a4187563a3b75',
  Conductor: '1.3-0c73457f12b6c189a2f4a67d17891351da1f91d8d23376a108072fed1a405fdc',
  Trait: '1.0-ee09d0eebcf1105ed7153d64fe3adca30fa5f2a22a66ef030168db0e7ccafd7e',
  TraitList: '1.0-9a16d766e22c39f41aa17dda8c7f22cc1770ab1898384ad0f1d0c49c5e1f0da8',
  NodeInventory: '1.0-bdb1274c884876a159a3f9d11bae7110ada2fbdc43544afb430119571e178597',
  Allocation: '1.1-981a4339d0676cc384a59f9c266b6b6c7b9323d9616b099a582a6a5ea2b2e2e2',
  DeployTemplate: '1.1-b171fa165d22589f3c3431fee8cca76018f486c259ac0bc1da77c911a4125034',
  BIOSSetting: '1.1-8912281427a6c8a7ebcac3691dc8296702895816d629981b156c381db9509dcd',
  NodeHistory: '1.0-10d7158e4eb0b68c9cbc8ffc4412d424ed5d6596c0f82aa6b55ac42621c85749',
  VolumeConnector: '1.0-79af471229e3cd3c93279d12a6ab1b0f77630df0a40ba6fbe3ad46b66deafdb5',
  VolumeTarget: '1.0-c80579fec825e16ab566eb66351538107f5d03cd2c8ea757737cf6f27b14cc9f',
};

describe('bare metal object types', () => {
  test('fingerprints match the table', () => {
    assertFingerprints(BAREMETAL_OBJECT_TYPES, FINGERPRINTS);
  });

  test('the service registry holds the fourteen types of antelope, in the ironic namespace', () => {
    assert.deepEqual(latestObjectVersions(), {
      Node: '1.37',
      Port: '1.11',
      Portgroup: '1.5',
      Chassis: '1.3',
      Conductor: '1.3',
      Trait: '1.0',
      TraitList: '1.0',
      NodeInventory: '1.0',
      Allocation: '1.1',
      DeployTemplate: '1.1',
      BIOSSetting: '1.1',
      NodeHistory: '1.0',
      VolumeConnector: '1.0',
      VolumeTarget: '1.0',
    });
    for (const type of BAREMETAL_OBJECT_TYPES) {
      assert.equal(BAREMETAL_OBJECTS.get(type.name), type);
      assert.deepEqual(type.namespace, IRONIC_NAMESPACE);
    }
  });

  test('every history has a noted step for each minor version from 1.0 to the current one', () => {
    for (const type of BAREMETAL_OBJECT_TYPES) {
      const minor = Number(type.version.split('.')[1]);
      assert.deepEqual(
        type.knownVersions(),
        Array.from({ length: minor + 1 }, (_, i) => `1.${i}`),
        type.name,
      );
      for (const step of type.history)
        assert.ok(step.note.length > 0, `${type.name} ${step.version}`);
    }
  });

  test('every field of the current version was there at 1.0 or is named by the step that added it', () => {
    const added = new Map(
      Node.history.flatMap((step) => (step.added ?? []).map((field) => [field, step.version])),
    );
    assert.equal(added.get('traits'), '1.23');
    assert.equal(added.get('boot_mode'), '1.36');
    assert.equal(added.get('instance_info'), '1.1');
    assert.deepEqual([...Node.fieldsAt('1.0')].sort(), [
      'chassis_id',
      'console_enabled',
      'created_at',
      'driver',
      'driver_info',
      'extra',
      'id',
      'inspection_finished_at',
      'inspection_started_at',
      'instance_uuid',
      'last_error',
      'maintenance',
      'power_state',
      'properties',
      'provision_state',
      'provision_updated_at',
      'reservation',
      'target_power_state',
      'target_provision_state',
      'updated_at',
      'uuid',
    ]);
    assert.deepEqual([...Port.fieldsAt('1.4')].sort(), [
      'address',
      'created_at',
      'extra',
      'id',
      'node_id',
      'updated_at',
      'uuid',
    ]);
  });
});

describe('conversions of bare metal objects', () => {
  const node = () => sampleObject(Node).resetChanges();

  test('for the database, fields a version lacks are not written: a pinned save leaves their columns alone', () => {
    const at26 = convertForDb(node(), '1.26');
    for (const field of [
      'conductor_group',
      'protected',
      'retired',
      'network_data',
      'owner',
      'boot_mode',
      'secure_boot',
      'shard',
    ] as const) {
      assert.equal(at26.isSet(field), false, field);
      assert.equal(field in at26.getChanges(), false, field);
    }
    // deploy_step came with 1.26 and is kept, unchanged.
    assert.deepEqual(at26.get('deploy_step'), node().get('deploy_step'));
    assert.equal(at26.changedFields().has('deploy_step'), false);
  });

  test("from the database, an older row's missing fields get the values Ironic gives them, marked changed", () => {
    const row0 = convertForWire(node(), '1.0').resetChanges();
    const up = convertForDb(row0, Node.version);
    assert.equal(up.get('conductor_group'), '');
    assert.equal(up.get('protected'), false);
    assert.equal(up.get('retired'), false);
    assert.deepEqual(up.get('network_data'), {});
    assert.equal(up.get('owner'), null);
    assert.equal(up.get('shard'), null);
    assert.equal(up.get('uuid'), node().get('uuid'));
    for (const field of ['conductor_group', 'protected', 'network_data', 'shard'] as const)
      assert.ok(up.changedFields().has(field), field);
    const port = convertForDb(
      convertForWire(sampleObject(Port), '1.4').resetChanges(),
      Port.version,
    );
    assert.equal(port.get('pxe_enabled'), true);
    assert.equal(port.get('is_smartnic'), false);
    const portgroup = convertForDb(
      convertForWire(sampleObject(Portgroup), '1.1').resetChanges(),
      Portgroup.version,
    );
    assert.equal(portgroup.get('standalone_ports_supported'), true);
    const conductor = convertForWire(sampleObject(Conductor), '1.2').resetChanges();
    assert.equal(convertForDb(conductor, Conductor.version).get('conductor_group'), '');
  });

  test('for the wire, fields a version lacks are removed and the original is untouched', () => {
    const original = node();
    const at33 = convertForWire(original, '1.33');
    for (const field of ['lessee', 'network_data', 'boot_mode', 'secure_boot'] as const)
      assert.equal(at33.isSet(field), false, field);
    assert.equal(at33.get('retired'), true);
    assert.equal(original.get('boot_mode'), 'uefi');
    assert.equal(original.version, '1.37');
  });

  test('an old object read from the wire is brought to the latest version with defaults, not marked changed', () => {
    const old = toPrimitive(node(), '1.28');
    const latest = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
      old,
    ) as VersionedObject;
    assert.equal(latest.version, '1.37');
    assert.equal(latest.get('shard'), null);
    assert.equal(latest.get('protected'), false);
    assert.equal(latest.get('retired'), false);
    assert.equal(latest.get('owner'), null);
    assert.deepEqual(latest.get('network_data'), {});
    assert.equal(latest.get('automated_clean'), true);
    // The sender did not know these fields: a save of what it sent must not write them.
    const changed = latest.changedFields();
    for (const field of ['protected', 'lessee', 'shard', 'network_data'] as const)
      assert.equal(changed.has(field), false, field);
  });

  test('a node carries its traits as a TraitList through a primitive', () => {
    const obj = node();
    const read = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
      JSON.parse(JSON.stringify(toPrimitive(obj))),
    ) as NodeObject;
    const traits = read.get('traits');
    assert.ok(traits);
    assert.equal(traits.type, TraitList);
    assert.equal(traits.get('objects')[0]?.type, Trait);
    assert.deepEqual(traitNames(traits), ['CUSTOM_GPU', 'HW_CPU_X86_VMX']);
  });

  test("a port's tenant VIF is copied from extra on conversions to 1.8 and later only", () => {
    const port = sampleObject(Port).assign('internal_info', {}).resetChanges();
    assert.deepEqual(convertForDb(port, '1.9').get('internal_info'), {
      tenant_vif_port_id: 'a-vif',
    });
    assert.deepEqual(convertForDb(port, '1.7').get('internal_info'), {});
    // The converted copy owns its dict: the original's stays empty.
    assert.deepEqual(port.get('internal_info'), {});
    const pg = sampleObject(Portgroup)
      .assign('extra', { vif_port_id: 'v' })
      .assign('internal_info', { a: 1 });
    assert.deepEqual(convertForWire(pg, '1.3').get('internal_info'), { a: 1 });
    const upgraded = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
      toPrimitive(pg, '1.3'),
    ) as VersionedObject;
    assert.deepEqual(upgraded.get('internal_info'), { a: 1, tenant_vif_port_id: 'v' });
  });

  test("antelope's fields: removed on the wire and from the database writes at zed's versions; filled unchanged on receipt", () => {
    const cases = [
      { type: Node, zed: '1.36', field: 'shard' },
      { type: Port, zed: '1.10', field: 'node_uuid' },
      { type: Portgroup, zed: '1.4', field: 'node_uuid' },
    ];
    for (const { type, zed, field } of cases) {
      const original = sampleObject(type).resetChanges();
      assert.notEqual(original.get(field as never), null, `${type.name}.${field} sample`);
      const wire = convertForWire(original, zed);
      assert.equal(wire.version, zed);
      assert.equal(wire.isSet(field as never), false, `${type.name}.${field} on the wire`);
      const primitive = toPrimitive(original, zed) as Record<string, Record<string, unknown>>;
      assert.equal(field in (primitive['ironic_object.data'] ?? {}), false);
      const db = convertForDb(original, zed);
      assert.equal(db.version, zed);
      assert.equal(db.isSet(field as never), false, `${type.name}.${field} for the database`);
      assert.equal(field in db.getChanges(), false, `${type.name}.${field} not written`);
      // The original keeps its value.
      assert.notEqual(original.get(field as never), null);
      // Back up from zed's primitive: the field is there again, null, not a change to save.
      const up = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
        primitive,
      ) as VersionedObject;
      assert.equal(up.version, type.version);
      assert.equal(up.get(field as never), null);
      assert.equal(up.changedFields().has(field as never), false);
    }
  });

  test('NodeInventory is new in antelope: one version, every field kept on both paths', () => {
    assert.deepEqual(NodeInventory.knownVersions(), ['1.0']);
    const inventory = sampleObject(NodeInventory);
    assert.deepEqual(convertForWire(inventory, '1.0').asDict(), inventory.asDict());
    const read = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
      JSON.parse(JSON.stringify(toPrimitive(inventory))),
    ) as VersionedObject;
    assert.deepEqual(read.get('inventory_data'), inventory.get('inventory_data'));
  });

  test('chassis and conductors have no fields to convert below their current version', () => {
    const chassis = sampleObject(Chassis);
    assert.deepEqual(convertForWire(chassis, '1.0').asDict(), chassis.asDict());
  });

  test('Allocation 1.0 has no owner: removed on the wire, not written to the database, null when brought up', () => {
    const allocation = sampleObject(Allocation);
    const wire = convertForWire(allocation, '1.0');
    assert.equal(wire.version, '1.0');
    assert.equal(Object.hasOwn(wire.asDict(), 'owner'), false);
    assert.equal(convertForDb(allocation, '1.0').isSet('owner' as never), false);
    const up = new ObjectSerializer(BAREMETAL_OBJECTS).deserializeEntity(
      JSON.parse(JSON.stringify(toPrimitive(wire))),
    ) as VersionedObject;
    assert.equal(up.version, '1.1');
    assert.equal(up.get('owner' as never), null);
    assert.deepEqual(up.get('traits' as never), ['CUSTOM_GPU', 'HW_CPU_X86_VMX']);
  });

  test('DeployTemplate 1.0 has no extra; its steps are a list of free-form dicts', () => {
    const template = sampleObject(DeployTemplate);
    assert.equal(Object.hasOwn(convertForWire(template, '1.0').asDict(), 'extra'), false);
    assert.equal(convertForDb(template, '1.0').isSet('extra' as never), false);
    assert.throws(() => DeployTemplate.create({ steps: ['not a dict'] as never }));
    const steps = [{ interface: 'deploy', step: 'deploy', args: {}, priority: 0 }];
    const copy = DeployTemplate.create({ steps });
    steps[0] = { interface: 'raid', step: 'x', args: {}, priority: 1 };
    assert.equal((copy.get('steps') as { step: string }[])[0]?.step, 'deploy');
  });
});
