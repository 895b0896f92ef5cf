import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as catalogue from '../../../src/baremetal/common/errors.ts';
import {
  BAREMETAL_ERROR_CLASSES,
  BAREMETAL_REMOTE_ERRORS,
} from '../../../src/baremetal/rpcapi/index.ts';
import { errorFromFailure, failureOf } from '../../../src/rpc/wire-errors.ts';

/** An instance of each class of the catalogue, with fields (constructors take strings). */
function sample(name: string, type: new (...args: string[]) => catalogue.IronicError) {
  const args = ['a1', 'b2', 'c3', 'd4'];
  if (name === 'NotFoundError') return new catalogue.NotFoundError('node', 'n-1');
  if (name === 'NotEmptyError') return new catalogue.NotEmptyError('chassis', 'c-1');
  if (name === 'DuplicateError') return catalogue.duplicateOf('port', 'address', 'aa:bb');
  if (name === 'NodeTraitNotFoundError') return new catalogue.NodeTraitNotFoundError(7, 'CUSTOM_X');
  if (name === 'NodeChangedError') return new catalogue.NodeChangedError('n-1', ['extra']);
  if (name === 'VolumeChangedError') return new catalogue.VolumeChangedError('v-1', ['extra']);
  if (name === 'DriverNotFoundInEntrypointError')
    return new catalogue.DriverNotFoundInEntrypointError(['redfish'], 'ironic.hardware.types');
  if (name === 'InterfaceNotFoundInEntrypointError')
    return new catalogue.InterfaceNotFoundInEntrypointError('console', 'ipmitool-socat', [
      'no-console',
    ]);
  return new type(...args);
}

const roundTrip = (error: Error) =>
  errorFromFailure(JSON.parse(JSON.stringify(failureOf(error))), BAREMETAL_REMOTE_ERRORS);

describe('the error catalogue across the RPC wire', () => {
  it('registers every class of the catalogue under the name its instances carry', () => {
    const names = Object.keys(BAREMETAL_ERROR_CLASSES);
    assert.ok(names.length >= 30, `only ${names.length} classes`);
    for (const [name, type] of Object.entries(BAREMETAL_ERROR_CLASSES)) {
      const error = sample(name, type as never);
      assert.equal(error.name, name, `${name} instances say ${error.name}`);
    }
  });

  it('rebuilds each error as its own class with its message, fields and status', () => {
    for (const [name, type] of Object.entries(BAREMETAL_ERROR_CLASSES)) {
      const sent = sample(name, type as never);
      const received = roundTrip(sent);
      assert.ok(received instanceof type, `${name} came back as ${received.constructor.name}`);
      assert.equal(received.name, name);
      assert.equal(received.message, sent.message);
      assert.equal((received as catalogue.IronicError).code, sent.code);
      assert.deepEqual((received as catalogue.IronicError).wireData(), sent.wireData());
    }
  });

  it("keeps NodeLocked's real text, fields and 409", () => {
    const received = roundTrip(new catalogue.NodeLockedError('1be26c0b', 'cond-2'));
    assert.ok(received instanceof catalogue.NodeLockedError);
    assert.equal(
      received.message,
      'Node 1be26c0b is locked by host cond-2, please retry after the current operation is completed.',
    );
    assert.equal(received.node, '1be26c0b');
    assert.equal(received.host, 'cond-2');
    assert.equal(catalogue.httpStatusOf(received), 409);
  });

  it('gives the real statuses', () => {
    const status = catalogue.httpStatusOf;
    assert.equal(status(new catalogue.InvalidStateRequestedError('deploy', 'n', 'enroll')), 400);
    assert.equal(status(new catalogue.NotFoundError('node', 'x')), 404);
    assert.equal(status(catalogue.duplicateOf('port', 'address', 'aa')), 409);
    assert.equal(status(new catalogue.NoValidHostError('ipmi', '')), 404);
    assert.equal(status(new catalogue.NoFreeConductorWorkerError()), 503);
    assert.equal(status(new catalogue.NoConductorsError()), 503);
    assert.equal(status(new catalogue.InvalidParameterError('bad')), 400);
    assert.equal(status(new catalogue.NodeInMaintenanceError('provisioning', 'n')), 400);
    assert.equal(status(new catalogue.NotEmptyError('chassis', 'c')), 400);
    assert.equal(status(new catalogue.NodeProtectedError('n')), 403);
    assert.equal(status(new catalogue.InvalidStateError('no')), 409);
    assert.equal(status(new catalogue.NodeAssociatedError('n', 'i')), 409);
    assert.equal(status(new TypeError('bug')), 500);
  });

  it('words the conductor errors as the real service', () => {
    assert.equal(
      new catalogue.InvalidStateRequestedError('provide', 'n1', 'enroll').message,
      'The requested action "provide" can not be performed on node "n1" while it is in state "enroll".',
    );
    assert.equal(
      new catalogue.NoFreeConductorWorkerError().message,
      'Requested action cannot be performed due to lack of free conductor workers.',
    );
    assert.equal(
      new catalogue.NodeInMaintenanceError('provisioning', 'n1').message,
      "The provisioning operation can't be performed on node n1 because it's in maintenance mode.",
    );
  });
});
