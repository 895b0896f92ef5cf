import type { Scenario } from '../pair.ts';

/** The version document and microversion negotiation. */
export const root: Scenario = {
  name: 'root and microversions',
  async run(pair) {
    await pair.req('version document without a token', { method: 'GET', path: '/', token: null });
    await pair.req('version document at latest', { method: 'GET', path: '/', version: 'latest' });
    for (const version of ['1.0', '1.39', '1.40', '0.9', '2.0', 'garbage', '1.2.3']) {
      await pair.req(`version ${version}`, { method: 'GET', path: '/resource_providers', version });
    }
    await pair.req('no token', { method: 'GET', path: '/resource_providers', token: null });
    await pair.req('unknown path', { method: 'GET', path: '/nothing-here', version: '1.39' });
    await pair.req('method not allowed', {
      method: 'PATCH',
      path: '/resource_providers',
      version: '1.39',
    });
    await pair.req('error without Accept', {
      method: 'GET',
      path: '/resource_providers/not-a-uuid',
      version: '1.39',
      headers: { accept: '' },
    });
  },
};
