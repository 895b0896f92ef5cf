/** The rehearsal on PostgreSQL with http RPC (support/server-rehearsal.ts). */
import { describe } from 'node:test';
import { itRehearsesOn } from './support/server-rehearsal.ts';

describe('rehearsal on PostgreSQL', () => {
  itRehearsesOn('postgresql', 'http');
});
