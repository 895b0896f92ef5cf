import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wsgiPath } from '../../../src/placement/api/wsgi-path.ts';

describe('the path as a WSGI server hands it over', () => {
  it('decodes %2F into a separator and high bytes into Latin-1 characters', () => {
    assert.equal(
      wsgiPath('/resource_providers/x%2Finventories'),
      '/resource_providers/x/inventories',
    );
    assert.equal(wsgiPath('/traits/CUSTOM_%E2%98%83'), '/traits/CUSTOM_\u00e2\u0098\u0083');
  });

  it('leaves ASCII escapes to the router, keeps a stray % literal, never touches the query', () => {
    assert.equal(wsgiPath('/reso%75rce_classes/%41'), '/reso%75rce_classes/%41');
    assert.equal(wsgiPath('/traits/CUSTOM_%zz%'), '/traits/CUSTOM_%25zz%25');
    assert.equal(wsgiPath('/traits?name=in:%2F%E2'), '/traits?name=in:%2F%E2');
    assert.equal(wsgiPath('/x%2f?a=%2F'), '/x/?a=%2F');
  });
});
