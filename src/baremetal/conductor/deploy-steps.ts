/**
 * The deploy steps a deployment runs, as the real `conductor/steps.py` gathers them: the
 * driver's enabled steps, overridden by the user's (`deploy_steps` of the deploy request) and
 * by those of the deploy templates the node's instance traits name (deploy-templates.ts); each
 * user or template step checked against the steps the node's interfaces offer, with the real
 * messages. Steps the interfaces do not offer are skipped (`skip_missing`, as every caller of
 * the real one passes it: an agent may offer them later).
 */
import { InvalidParameterError } from '../common/errors.ts';
import type { DriverStep } from '../drivers/base-interface.ts';
import { deployStepsOf, type NodeDriver } from '../drivers/node-driver.ts';
import { pythonRepr } from './node-info.ts';

export type UserStep = Record<string, unknown>;

/** steps.DEPLOYING_INTERFACE_PRIORITY: on equal priorities the higher interface runs first. */
const INTERFACE_PRIORITY: Readonly<Record<string, number>> = {
  power: 5,
  management: 4,
  deploy: 3,
  bios: 2,
  raid: 1,
};

const stepId = (step: { interface?: unknown; step?: unknown }) =>
  `${String(step.interface)}.${String(step.step)}`;

const priorityOf = (step: { priority?: unknown }) => Number(step.priority ?? 0);

/** _validate_user_step for a deploy step: the errors, none when it is fine. */
function stepErrors(user: UserStep, driver: DriverStep): string[] {
  const errors: string[] = [];
  const argsinfo = driver.argsinfo ?? {};
  const args = (user.args as Record<string, unknown> | null | undefined) ?? {};
  const unexpected = Object.keys(args).filter((name) => !Object.hasOwn(argsinfo, name));
  if (unexpected.length > 0) {
    errors.push(
      `deploy step ${pythonRepr(user)} has these unexpected arguments: ${unexpected.join(', ')}`,
    );
  }
  if (priorityOf(user) > 0) {
    const missing = Object.entries(argsinfo)
      .filter(([name, info]) => info.required && !Object.hasOwn(args, name))
      .map(([name, info]) => (info.description ? `${name} (${info.description})` : name));
    if (missing.length > 0) {
      errors.push(
        `deploy step ${pythonRepr(user)} is missing these required arguments: ${missing.join(', ')}`,
      );
    }
    // The one core step can only be disabled.
    if (driver.interface === 'deploy' && driver.step === 'deploy') {
      errors.push(
        `deploy step ${String(user.step)} on interface ${String(user.interface)} is a core step and cannot be overridden by user steps. It may be disabled by setting the priority to 0`,
      );
    }
  }
  return errors;
}

/**
 * _validate_user_steps for deploy steps: the steps the interfaces offer, each checked, no two
 * alike; InvalidParameterError with every problem after `prefix` otherwise.
 */
export function validateUserDeploySteps(
  driver: NodeDriver,
  userSteps: readonly UserStep[],
  prefix = '',
): UserStep[] {
  const known = new Map(deployStepsOf(driver).map((step) => [stepId(step), step]));
  const errors: string[] = [];
  const result: UserStep[] = [];
  for (const user of userSteps) {
    const offered = known.get(stepId(user));
    if (offered === undefined) continue;
    errors.push(...stepErrors(user, offered));
    result.push(user);
  }
  const counts = new Map<string, number>();
  for (const step of result) counts.set(stepId(step), (counts.get(stepId(step)) ?? 0) + 1);
  const duplicates = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
  if (duplicates.length > 0) {
    errors.push(
      `deploy steps from all deploy templates matching this node's instance traits cannot have the same interface and step. Duplicate deploy steps for ${duplicates.join(', ')}`,
    );
  }
  if (errors.length > 0) throw new InvalidParameterError(prefix + errors.join('; '));
  return result;
}

/** The user's deploy steps (the request's, else those kept from it), validated. */
export function validatedUserDeploySteps(
  driver: NodeDriver,
  steps: readonly UserStep[] | null | undefined,
): UserStep[] {
  if (!steps || steps.length === 0) return [];
  // The real prefix has no space before the errors.
  return validateUserDeploySteps(
    driver,
    steps,
    'Validation of deploy steps from "deploy steps" argument failed.',
  );
}

/**
 * _get_all_deployment_steps: the driver's enabled steps less those the user or a template
 * names, plus the user's and the templates' enabled ones (the user's win over a template's),
 * highest priority first, the interface priority breaking ties.
 */
export function allDeploymentSteps(
  driver: NodeDriver,
  userSteps: readonly UserStep[],
  templateSteps: readonly UserStep[],
): UserStep[] {
  const chosen = [...userSteps];
  const userIds = new Set(userSteps.map(stepId));
  chosen.push(...templateSteps.filter((step) => !userIds.has(stepId(step))));
  const chosenIds = new Set(chosen.map(stepId));
  const steps: UserStep[] = deployStepsOf(driver)
    .filter((step) => step.priority !== 0 && !chosenIds.has(stepId(step)))
    .map((step) => ({
      step: step.step,
      priority: step.priority,
      argsinfo: step.argsinfo ?? null,
      interface: step.interface,
    }));
  steps.push(...chosen.filter((step) => priorityOf(step) > 0));
  const key = (step: UserStep) => [
    priorityOf(step),
    INTERFACE_PRIORITY[String(step.interface)] ?? 0,
  ];
  // Stable, highest first, as Python's sorted(..., reverse=True).
  return steps
    .map((step, index) => ({ step, index }))
    .sort((a, b) => {
      const [ap, ai] = key(a.step) as [number, number];
      const [bp, bi] = key(b.step) as [number, number];
      return bp - ap || bi - ai || a.index - b.index;
    })
    .map(({ step }) => step);
}
