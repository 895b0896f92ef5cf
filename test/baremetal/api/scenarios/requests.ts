/**
 * The requests of a scenario's steps, at the latest version both sides serve unless told
 * otherwise.
 */
import type { Exchange } from '../support/compare.ts';

/** The version the scenarios speak by default. */
export const LATEST = '1.82';

export const get = (path: string, version = LATEST): Exchange => ({ path, version });

export const post = (path: string, body: unknown, version = LATEST): Exchange => ({
  method: 'POST',
  path,
  version,
  body,
});

export const patch = (path: string, body: unknown, version = LATEST): Exchange => ({
  method: 'PATCH',
  path,
  version,
  body,
});

export const del = (path: string, version = LATEST): Exchange => ({
  method: 'DELETE',
  path,
  version,
});
