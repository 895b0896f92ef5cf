/** Request bodies of /resource_classes (the real service's POST and PUT schemas, v1.2). */
import type { JsonSchema } from './validator.ts';

/** Names a client may create: the custom namespace, upper-case letters, digits, underscores. */
export const CUSTOM_NAME_PATTERN = '^CUSTOM_[A-Z0-9_]+$';

/** `POST /resource_classes` and the 1.2–1.6 rename `PUT /resource_classes/{name}`. */
export const RESOURCE_CLASS_BODY: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', pattern: CUSTOM_NAME_PATTERN, maxLength: 255 },
  },
  required: ['name'],
  additionalProperties: false,
};
