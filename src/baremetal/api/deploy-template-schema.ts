/**
 * A deploy template as the real API takes and shows it (controllers/v1/deploy_template.py):
 * the body schema (a trait name, at least one step of a deploying interface, `extra`, and a
 * `description` the schema accepts but no field keeps), no two steps of one interface and step,
 * and the shown body: uuid, timestamps, name, extra, links and the steps (interface, step,
 * args, priority), their args' secrets masked.
 */
import type { FastifyRequest } from 'fastify';
import type { JsonSchema } from '../../python-compat/index.ts';
import { InvalidDeployTemplateError, InvalidParameterError } from '../common/errors.ts';
import type { DeployTemplateObject } from '../objects/index.ts';
import { publicUrl, selfLinks } from './links.ts';
import { maskDictPassword } from './mask-secrets.ts';
import { TRAIT_SCHEMA } from './node-traits.ts';
import { invalidFields, keepFields, objectToDict } from './object-dict.ts';
import { args, type Validator } from './params.ts';
import { dictValid, schemaArg } from './schema-args.ts';

/** steps.DEPLOYING_INTERFACE_PRIORITY's interfaces, in its order. */
const DEPLOYING_INTERFACES = ['power', 'management', 'deploy', 'bios', 'raid'];

/** utils.DEPLOY_STEP_SCHEMA. */
export const DEPLOY_STEP_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    args: { type: 'object' },
    interface: { type: 'string', enum: DEPLOYING_INTERFACES },
    priority: {
      anyOf: [
        { type: 'integer', minimum: 0 },
        { type: 'string', minLength: 1, pattern: '^[0-9]+$' },
      ],
    },
    step: { type: 'string', minLength: 1 },
  },
  required: ['interface', 'step', 'args', 'priority'],
  additionalProperties: false,
};

export const TEMPLATE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    description: { type: ['string', 'null'], maxLength: 255 },
    extra: { type: ['object', 'null'] },
    name: TRAIT_SCHEMA,
    steps: { type: 'array', items: DEPLOY_STEP_SCHEMA, minItems: 1 },
    uuid: { type: ['string', 'null'] },
  },
  required: ['steps', 'name'],
  additionalProperties: false,
};

type Step = { interface: string; step: string };

/** duplicate_steps: each interface and step at most once. */
const duplicateSteps: Validator = (_name, value) => {
  const steps = ((value as { steps?: Step[] } | null)?.steps ?? []) as Step[];
  const counts = new Map<string, number>();
  for (const step of steps) {
    const key = `interface: ${step.interface}, step: ${step.step}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const duplicates = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
  if (duplicates.length > 0) {
    throw new InvalidDeployTemplateError(
      `Duplicate deploy steps. A deploy template cannot have multiple deploy steps with the same interface and step. Duplicates: ${duplicates.join('; ')}`,
    );
  }
  return value;
};

export const TEMPLATE_VALIDATOR = args.and(
  schemaArg(TEMPLATE_SCHEMA, { noneIsValid: false }),
  duplicateSteps,
  dictValid({ uuid: args.uuid }),
);

export const DEPLOY_STEP_VALIDATOR = schemaArg(DEPLOY_STEP_SCHEMA);

/** convert_with_links, before sanitizing: `fields` must name keys the body has. */
export function templateDict(
  request: FastifyRequest,
  template: DeployTemplateObject,
  fields?: readonly string[],
): Record<string, unknown> {
  const body = objectToDict(template, ['name', 'extra']);
  body.links = selfLinks(publicUrl(request), 'deploy_templates', String(template.get('uuid')));
  body.steps = (template.get('steps') as Record<string, unknown>[]).map((step) => ({
    interface: step.interface,
    step: step.step,
    args: step.args,
    priority: step.priority,
  }));
  if (fields !== undefined) {
    const invalid = invalidFields(fields, body);
    if (invalid.length > 0) {
      throw new InvalidParameterError(`Field(s) "${invalid.join(', ')}" are not valid`);
    }
  }
  return body;
}

/** template_sanitize: the fields asked for, the steps' args with their secrets masked. */
export function sanitizeTemplate(
  body: Record<string, unknown>,
  fields?: readonly string[],
): Record<string, unknown> {
  keepFields(body, fields);
  const steps = body.steps as Record<string, unknown>[] | undefined;
  for (const step of steps ?? []) {
    if (step.args && Object.keys(step.args as object).length > 0) {
      step.args = maskDictPassword(step.args as Record<string, unknown>, '******');
    }
  }
  return body;
}

export function templateBody(
  request: FastifyRequest,
  template: DeployTemplateObject,
  fields?: readonly string[],
): Record<string, unknown> {
  return sanitizeTemplate(templateDict(request, template, fields), fields);
}
