/**
 * Reads `[oslo_policy] policy_file`: JSON or YAML (JSON is tried first, as oslo.policy
 * does), a mapping of rule names to check strings. Anything else is a startup error that
 * names the file and what is wrong with it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

// yaml is loaded only for a policy file that is not JSON: loading it costs ~0.15 s of CPU,
// which every Placement process would pay at start for a file it usually does not have.
const requireModule = createRequire(import.meta.url);
function parseYaml(text: string): unknown {
  return (requireModule('yaml') as typeof import('yaml')).parse(text);
}

/** A policy file that is missing, unreadable or invalid. */
export class PolicyFileError extends Error {
  override name = 'PolicyFileError';
  constructor(path: string, reason: string) {
    super(`policy file ${path}: ${reason}`);
  }
}

/** The rules a policy file's text holds; throws a plain Error with the reason. */
export function parsePolicyText(text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    try {
      data = parseYaml(text);
    } catch (error) {
      throw new Error(`neither JSON nor YAML (${(error as Error).message.split('\n', 1)[0]})`);
    }
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new Error('expected a mapping of rule names to check strings');
  }
  for (const [name, rule] of Object.entries(data)) {
    if (typeof rule !== 'string' && !Array.isArray(rule)) {
      throw new Error(`rule '${name}' must be a check string, not ${JSON.stringify(rule)}`);
    }
  }
  return data as Record<string, unknown>;
}

export async function loadPolicyFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PolicyFileError(path, code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  try {
    return parsePolicyText(text);
  } catch (error) {
    throw new PolicyFileError(path, (error as Error).message);
  }
}
