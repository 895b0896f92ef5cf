/**
 * Whether a node is cleaned when it becomes available (the real `skip_automated_cleaning`):
 * the conductor runs the cleaning, and a ramdisk deploy asks because cleaning needs the agent
 * ramdisk that the deploy itself does not.
 */
import type { NodeObject } from '../objects/index.ts';

/** The node's own `automated_clean` wins over `[conductor] automated_clean`. */
export function skipsAutomatedCleaning(node: NodeObject, automatedClean: boolean): boolean {
  const own = node.get('automated_clean');
  if (own === true) return false;
  if (own === null) return !automatedClean;
  return true;
}
