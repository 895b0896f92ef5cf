/**
 * DeployTemplate 1.1, as Ironic 21.4 has it (new in Baton's antelope; Ironic's since stein): a
 * named list of deploy steps (API 1.55). A node whose instance traits name a template gets its
 * steps when deployed (conductor/deploy-templates.ts). The steps are rows of
 * `deploy_template_steps`, read and written with the template, never a column. 1.1 added
 * `extra`.
 */
import { defineObjectType, f } from '../../objects/index.ts';
import { addedFields, unchanged } from './history.ts';
import { IRONIC_NAMESPACE, timestampFields } from './namespace.ts';

export const DeployTemplate = defineObjectType({
  name: 'DeployTemplate',
  namespace: IRONIC_NAMESPACE,
  fields: {
    id: f.integer(),
    uuid: f.uuid(),
    name: f.string(),
    steps: f.listOfFlexibleDicts(),
    extra: f.flexibleDict({ nullable: true }),
    ...timestampFields(),
  },
  history: [
    unchanged('1.0', 'Initial version'),
    addedFields('1.1', "Added 'extra' field", { extra: null }),
  ],
});

export type DeployTemplateObject = ReturnType<typeof DeployTemplate.create>;
