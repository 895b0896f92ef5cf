"""The oslo.versionedobjects side of bench/objects.ts, measured in the same run.

Runs the operations of the baseline in test/fixtures/ovo/README.md on the
real library (Debian python3-oslo.versionedobjects and python3-ironic, under
/usr/bin/python3), through the family in ironic_family.py, on process CPU time,
best of 5 repeats of about 0.2 s each. Prints one JSON line of ops/s with the
same keys as the TypeScript side.

Usage: /usr/bin/python3 oslo_objects.py <dir of ironic_family.py> [name,...]
       /usr/bin/python3 oslo_objects.py <dir of ironic_family.py> --serve
         (reads operation names, one per line; answers each with one sample)
"""

import datetime
import json
import sys
import time

sys.path.insert(0, sys.argv[1])

import ironic_family as fam  # noqa: E402
from oslo_versionedobjects import fixture  # noqa: E402
from ironic.objects.base import IronicObjectSerializer  # noqa: E402
import iso8601  # noqa: E402


def twenty(prefix):
    return {
        '%s_%d' % (prefix, i): (i * 1024 if i % 3 == 0
                                else 'value-%d' % i if i % 3 == 1
                                else {'nested': i})
        for i in range(20)
    }


def full_node():
    return fam.Node(
        id=42, uuid='1be26c0b-03f2-4d2e-ae87-c02d7f33c123', name='node-01',
        driver='ipmi', extra={}, properties=twenty('prop'),
        driver_info=twenty('ipmi'), power_state='power on',
        provision_state='active', maintenance=False, chassis_id=3,
        version='1.15',
        meta={'owner': 'team-a', 'rack': 'R12', 'slot': 4, 'flags': ['gpu']},
        created_at=iso8601.parse_date('2023-05-06T07:08:09.123456Z'),
        updated_at=iso8601.parse_date('2024-02-29T23:59:59.5+05:30'))


def calibrate(run):
    """A batch of calls that takes at least 20 ms of CPU (timer reads stay negligible)."""
    batch = 1
    while True:
        start = time.process_time()
        for _ in range(batch):
            run()
        if time.process_time() - start > 0.02:
            return batch
        batch *= 2


def sample(run, batch):
    """ops/s over about 0.2 s of process CPU time."""
    ops = 0
    start = time.process_time()
    while True:
        for _ in range(batch):
            run()
        ops += batch
        elapsed = time.process_time() - start
        if elapsed >= 0.2:
            return ops / elapsed


def measure(run):
    batch = calibrate(run)
    return max(sample(run, batch) for _ in range(5))


node = full_node()
latest_primitive = json.loads(json.dumps(node.obj_to_primitive()))


def pinned_serialize():
    # Ironic converts the object in place: clone first so every run is alike.
    clone = node.obj_clone()
    clone.convert_to_version('1.14', remove_unavailable_fields=True)
    return clone.obj_to_primitive()


old_primitive = json.loads(json.dumps(pinned_serialize()))
receiver = IronicObjectSerializer(is_server=True)
properties = twenty('prop')
driver_info = twenty('ipmi')
when = datetime.datetime(2024, 1, 2, 3, 4, 5, 678000,
                         tzinfo=datetime.timezone.utc)
target = full_node()


def set_10_fields():
    target.name = 'node-02'
    target.driver = 'redfish'
    target.power_state = 'power off'
    target.provision_state = 'available'
    target.version = '1.15'
    target.maintenance = True
    target.chassis_id = '7'
    target.uuid = 'e3f0c7b6-5a1d-4c2e-9f8a-0b1c2d3e4f50'
    target.updated_at = when
    target.properties = properties
    target.driver_info = driver_info


checker = fixture.ObjectVersionChecker(fam.registry_classes())

BENCHES = {
    'serialize_latest': node.obj_to_primitive,
    'serialize_pinned': pinned_serialize,
    'deserialize_latest':
        lambda: fam.Node.obj_from_primitive(latest_primitive),
    'deserialize_old_to_latest':
        lambda: receiver.deserialize_entity(None, old_primitive),
    'set_10_fields': set_10_fields,
    'get_changes': node.obj_get_changes,
    'fingerprint': lambda: checker._get_fingerprint('Node'),
}

if len(sys.argv) > 2 and sys.argv[2] == '--serve':
    # One sample per line read (an operation's name), answered with one JSON line, so the
    # caller can alternate samples with Baton's and both see the same machine.
    batches = {}
    for line in sys.stdin:
        name = line.strip()
        run = BENCHES[name]
        if name not in batches:
            batches[name] = calibrate(run)
        print(json.dumps({name: round(sample(run, batches[name]))}), flush=True)
else:
    names = sys.argv[2].split(',') if len(sys.argv) > 2 else list(BENCHES)
    print(json.dumps({name: round(measure(BENCHES[name])) for name in names}))
