import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  acceptableOffers,
  acceptIsValid,
  effectiveAccept,
} from '../../../src/placement/api/accept.ts';

const OFFERS = ['text/html', 'application/json'];

describe('Accept negotiation as WebOb does it', () => {
  it('orders by quality, ties in the order offered, q=0 dropped', () => {
    assert.deepEqual(acceptableOffers('application/json', OFFERS), ['application/json']);
    assert.deepEqual(acceptableOffers('*/*;q=0.5', OFFERS), OFFERS);
    assert.deepEqual(acceptableOffers('application/json, text/html', OFFERS), OFFERS);
    assert.deepEqual(acceptableOffers('text/html;q=0.5, application/json', OFFERS), [
      'application/json',
      'text/html',
    ]);
    assert.deepEqual(acceptableOffers('application/json;q=0, text/plain', OFFERS), []);
    assert.deepEqual(acceptableOffers('*/*, application/json;q=0', OFFERS), ['text/html']);
    assert.deepEqual(acceptableOffers('text/*', OFFERS), ['text/html']);
    assert.deepEqual(acceptableOffers('APPLICATION/*', OFFERS), ['application/json']);
  });

  it('a range with parameters does not match a bare offer', () => {
    assert.deepEqual(acceptableOffers('application/json;v=2', OFFERS), []);
  });

  it('an invalid or absent header accepts every offer and is not "valid"', () => {
    for (const header of ['garbage', 'text/html;q=2', 'a/b;q=0.5;q=0.1 x', undefined]) {
      assert.deepEqual(acceptableOffers(header, OFFERS), OFFERS, String(header));
      assert.equal(acceptIsValid(header), false);
    }
    assert.equal(acceptIsValid('text/plain, , application/json;q=0.1;ext="a b"'), true);
    assert.equal(acceptIsValid(''), true);
  });

  it('a missing, empty or bare */* Accept means JSON to the handlers', () => {
    assert.equal(effectiveAccept(undefined), 'application/json');
    assert.equal(effectiveAccept(''), 'application/json');
    assert.equal(effectiveAccept('*/*'), 'application/json');
    assert.equal(effectiveAccept('*/*;q=0.5'), '*/*;q=0.5');
  });
});
