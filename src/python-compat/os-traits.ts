/**
 * The standard trait names of os-traits (the Python library both Placement and Ironic read
 * them from; Debian's python3-os-traits 2.9.0): Placement holds them in every database, Ironic
 * accepts them on nodes beside `CUSTOM_` ones.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const file = require('./os-traits.json') as { traits: string[] };

export const STANDARD_TRAITS: readonly string[] = Object.freeze([...file.traits]);

/** os-traits' prefix of custom traits. */
export const CUSTOM_TRAIT_PREFIX = 'CUSTOM_';
