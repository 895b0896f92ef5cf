/**
 * Deploy templates in a deployment, as the real `conductor/steps.py` and
 * `utils.validate_instance_info_traits` use them: a node's instance traits
 * (`instance_info.traits`, what the allocation or the user asked for) must be traits of the node,
 * and each names a deploy template whose steps join the deployment's, checked as a user's.
 */
import { InvalidParameterError } from '../common/errors.ts';
import type { NodeDriver } from '../drivers/node-driver.ts';
import type { NodeObject } from '../objects/index.ts';
import { traitNames } from '../objects/index.ts';
import type { ConductorContext } from './conductor-context.ts';
import {
  type UserStep,
  validatedUserDeploySteps,
  validateUserDeploySteps,
} from './deploy-steps.ts';
import { internalInfo } from './node-info.ts';

const STEP_FIELDS = ['interface', 'step', 'args', 'priority'] as const;

function instanceTraits(node: NodeObject): unknown {
  return (node.get('instance_info') as Record<string, unknown> | null)?.traits;
}

/** validate_instance_info_traits: a list of strings, each a trait of the node. */
export function validateInstanceInfoTraits(node: NodeObject): void {
  const traits = instanceTraits(node);
  // A falsy value (none, empty list or string) asks for nothing, as in Python.
  if (!traits || (Array.isArray(traits) && traits.length === 0)) return;
  if (!Array.isArray(traits) || !traits.every((t) => typeof t === 'string')) {
    throw new InvalidParameterError(
      `Error parsing traits from Node ${node.get('uuid')} instance_info field. A list of strings is expected.`,
    );
  }
  const list = node.get('traits');
  const own = new Set(list ? traitNames(list) : []);
  const missing = [...new Set(traits as string[])].filter((trait) => !own.has(trait));
  if (missing.length > 0) {
    throw new InvalidParameterError(
      `Cannot specify instance traits that are not also set on the node. Node ${node.get('uuid')} is missing traits ${missing.join(', ')}`,
    );
  }
}

/**
 * _get_validated_steps_from_templates: the steps of the templates the node's instance traits
 * name, in the templates' order, only the step fields, checked against the node's interfaces.
 */
export async function templateDeploySteps(
  ctx: ConductorContext,
  node: NodeObject,
  driver: NodeDriver,
): Promise<UserStep[]> {
  const traits = instanceTraits(node);
  const names = Array.isArray(traits) ? traits.map(String) : [];
  const templates = traits ? await ctx.store.deployTemplates.listByNames(names) : [];
  const steps = templates.flatMap((template) =>
    (template.get('steps') as Record<string, unknown>[]).map((step) =>
      Object.fromEntries(STEP_FIELDS.map((field) => [field, step[field]])),
    ),
  );
  const prefix = `Validation of deploy steps from deploy templates matching this node's instance traits failed. Matching deploy templates: ${templates.map((t) => t.get('name')).join(',')}. Errors: `;
  return validateUserDeploySteps(driver, steps, prefix);
}

/**
 * validate_user_deploy_steps_and_templates: the templates' steps, then the user's (the
 * request's, else those the node keeps); InvalidParameterError on the first that fails.
 */
export async function validateDeployStepsAndTemplates(
  ctx: ConductorContext,
  node: NodeObject,
  driver: NodeDriver,
  deploySteps?: readonly UserStep[] | null,
): Promise<void> {
  await templateDeploySteps(ctx, node, driver);
  const kept = internalInfo(node).user_deploy_steps as UserStep[] | null | undefined;
  validatedUserDeploySteps(driver, deploySteps && deploySteps.length > 0 ? deploySteps : kept);
}
