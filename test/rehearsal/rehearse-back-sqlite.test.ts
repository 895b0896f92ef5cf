/**
 * Going back (docs/rehearsal.md, "Going back"): forward through the table to step 2.2, then
 * back to step 0 with the previous release, under load, on SQLite (support/server-rehearsal.ts).
 */
import { describe } from 'node:test';
import { itGoesBackFrom } from './support/server-rehearsal.ts';

describe('rehearsal there and back', () => {
  itGoesBackFrom('2.2');
});
