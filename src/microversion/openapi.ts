/**
 * OpenAPI 3.1 documents per microversion, built from an API's operations table: each
 * operation, parameter, body and response says from which gate (and until which) it exists,
 * and `openApiDocument(api, version)` keeps what exists at that version. Nothing is written
 * per version by hand. Pure: the services hand in their tables and schemas.
 */
import stringify from 'json-stringify-pretty-compact';
import { FeatureWindows } from './feature-windows.ts';
import type { FeatureGate } from './features.ts';
import { compareVersions, parseVersion, type Version } from './version.ts';

/** A JSON Schema, as a plain object. */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents are free-form
export type JsonSchemaObject = Record<string, any>;

/** A value that may differ per version: fixed, chosen by windows, or computed. */
export type AtVersion<T> = T | FeatureWindows<T> | ((version: Version) => T | undefined);

/** A version range bounded by gates: from `since` (included) to `until` (excluded). */
export interface Gated {
  readonly since?: FeatureGate;
  readonly until?: FeatureGate;
}

export interface QueryParameter extends Gated {
  readonly name: string;
  readonly description: string;
  readonly schema?: JsonSchemaObject;
  readonly required?: boolean;
}

export interface ResponseSpec extends Gated {
  /** An HTTP status as a string ('200'). */
  readonly status: string;
  readonly description: string;
  /** The body's schema; omitted when the body is empty or only described in words. */
  readonly schema?: AtVersion<JsonSchemaObject>;
}

export interface OpenApiOperation extends Gated {
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  /** OpenAPI form, `{name}` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Words about each path parameter; a parameter left out is described by its name. */
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly query?: readonly QueryParameter[];
  /**
   * The query as the service validates it (a JSON schema object per version): each property
   * is a parameter; pattern properties are listed under `x-pattern-query-parameters`.
   */
  readonly querySchema?: AtVersion<JsonSchemaObject>;
  readonly body?: AtVersion<JsonSchemaObject>;
  /** The body may be left out (it is required otherwise). */
  readonly bodyOptional?: boolean;
  readonly responses: readonly ResponseSpec[];
  /** True for the few paths that answer without a token. */
  readonly public?: boolean;
}

/** A service described for its OpenAPI documents: title, version header and operations. */
export interface OpenApiService {
  readonly title: string;
  readonly description: string;
  /** Every microversion the service serves, ascending. */
  readonly versions: readonly string[];
  /** The request header that asks for a version, and an example value at a version. */
  readonly versionHeader: {
    /** The header's name. */
    readonly name: string;
    /** The header's value asking for a version, e.g. `placement 1.39`. */
    readonly example: (version: string) => string;
  };
  /**
   * Response headers every answer carries (name to description): under `components.headers`
   * once, rather than repeated on each of the hundreds of responses.
   */
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The service's error body, for every status it answers an error with. */
  readonly errorSchema: JsonSchemaObject;
  readonly errorDescription: string;
  /** The security scheme for token-authenticated operations, if the service has one. */
  readonly tokenHeader?: string;
  /**
   * Schemas shared by several operations, under `components.schemas` (written once per
   * document): operations name them with `schemaRef(name)`.
   */
  readonly schemas?: Readonly<Record<string, AtVersion<JsonSchemaObject>>>;
  readonly operations: readonly OpenApiOperation[];
}

/** A reference to one of the service's shared schemas. */
export function schemaRef(name: string): JsonSchemaObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** Whether something gated exists at `version`. */
export function existsAt(gated: Gated, version: Version): boolean {
  if (gated.since !== undefined && compareVersions(version, gated.since) < 0) return false;
  if (gated.until !== undefined && compareVersions(version, gated.until) >= 0) return false;
  return true;
}

/** The value at `version` (undefined: none at that version). */
export function valueAt<T>(value: AtVersion<T> | undefined, version: Version): T | undefined {
  if (value === undefined) return undefined;
  if (value instanceof FeatureWindows) return value.select(version) as T | undefined;
  if (typeof value === 'function') return (value as (v: Version) => T | undefined)(version);
  return value;
}

/** A schema as OpenAPI 3.1 embeds it (JSON Schema 2020-12): the older draft's `$schema` goes. */
function embedded(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function pathParameters(operation: OpenApiOperation) {
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  return names.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: operation.pathParameters?.[name] ?? name,
    schema: { type: 'string' },
  }));
}

function queryParameters(operation: OpenApiOperation, version: Version) {
  const listed = (operation.query ?? [])
    .filter((parameter) => existsAt(parameter, version))
    .map((parameter) => ({
      name: parameter.name,
      in: 'query',
      ...(parameter.required === true ? { required: true } : {}),
      description: parameter.description,
      schema: parameter.schema ?? { type: 'string' },
    }));
  const schema = valueAt(operation.querySchema, version);
  if (schema === undefined) return { parameters: listed, patterns: undefined };
  const required = new Set<string>(schema.required ?? []);
  const properties = Object.entries(
    (schema.properties ?? {}) as Record<string, JsonSchemaObject>,
  ).map(([name, property]) => ({
    name,
    in: 'query',
    ...(required.has(name) ? { required: true } : {}),
    description: 'As the service validates it at this version (its JSON schema).',
    schema: embedded(property),
  }));
  const patterns = Object.entries(
    (schema.patternProperties ?? {}) as Record<string, JsonSchemaObject>,
  ).map(([pattern, property]) => ({
    pattern,
    description: 'Any query parameter whose name matches the pattern.',
    schema: embedded(property),
  }));
  return {
    parameters: [...properties, ...listed],
    patterns: patterns.length > 0 ? patterns : undefined,
  };
}

function responses(operation: OpenApiOperation, version: Version) {
  const answers: Record<string, unknown> = {};
  for (const response of operation.responses) {
    if (!existsAt(response, version)) continue;
    const schema = valueAt(response.schema, version);
    answers[response.status] = {
      description: response.description,
      ...(schema === undefined
        ? {}
        : { content: { 'application/json': { schema: embedded(schema) } } }),
    };
  }
  answers.default = { $ref: '#/components/responses/Error' };
  return answers;
}

function operationObject(service: OpenApiService, operation: OpenApiOperation, version: Version) {
  const query = queryParameters(operation, version);
  const body = valueAt(operation.body, version);
  return {
    tags: [operation.tag],
    summary: operation.summary,
    operationId: operationId(operation),
    parameters: [
      ...pathParameters(operation),
      ...query.parameters,
      { $ref: '#/components/parameters/microversion' },
    ],
    ...(query.patterns === undefined ? {} : { 'x-pattern-query-parameters': query.patterns }),
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            required: operation.bodyOptional !== true,
            content: { 'application/json': { schema: embedded(body) } },
          },
        }),
    responses: responses(operation, version),
    ...(operation.public === true && service.tokenHeader !== undefined ? { security: [] } : {}),
  };
}

/** `get /resource_providers/{uuid}/traits` → `get_resource_providers_uuid_traits`. */
function operationId(operation: OpenApiOperation): string {
  const words = operation.path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/[{}]/g, '').replace(/[^A-Za-z0-9_]/g, '_'));
  return [operation.method, ...(words.length === 0 ? ['root'] : words)].join('_');
}

/**
 * Parameters written the same way in several operations are moved to `components.parameters`
 * and referenced (a node list's twenty filters appear in four lists): the document stays
 * readable and a fraction of the size.
 */
function shareParameters(paths: Record<string, Record<string, unknown>>) {
  type Operation = { parameters: Record<string, unknown>[] };
  const operations = Object.values(paths).flatMap((item) => Object.values(item) as Operation[]);
  const uses = new Map<string, number>();
  for (const operation of operations) {
    for (const parameter of operation.parameters) {
      if ('$ref' in parameter) continue;
      const key = JSON.stringify(parameter);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const shared: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const [key, count] of uses) {
    if (count < 2) continue;
    const parameter = JSON.parse(key) as { name: string; in: string };
    const base = `${parameter.in}_${parameter.name}`;
    let name = base;
    for (let n = 2; name in shared; n++) name = `${base}_${n}`;
    shared[name] = parameter;
    names.set(key, name);
  }
  for (const operation of operations) {
    operation.parameters = operation.parameters.map((parameter) => {
      const name = names.get(JSON.stringify(parameter));
      return name === undefined ? parameter : { $ref: `#/components/parameters/${name}` };
    });
  }
  return shared;
}

function sharedSchemas(service: OpenApiService, version: Version) {
  const shared: Record<string, JsonSchemaObject> = {};
  for (const [name, schema] of Object.entries(service.schemas ?? {})) {
    const chosen = valueAt(schema, version);
    if (chosen !== undefined) shared[name] = embedded(chosen);
  }
  return shared;
}

/** Asked for the document of a version the service does not serve. */
export class UnknownDocumentVersionError extends Error {}

/** The service's OpenAPI 3.1 document at `version` (one of its versions, as it lists them). */
export function openApiDocument(service: OpenApiService, version: string): JsonSchemaObject {
  if (!service.versions.includes(version)) {
    throw new UnknownDocumentVersionError(`${service.title} has no microversion ${version}`);
  }
  const at = parseVersion(version);
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const operation of service.operations) {
    if (!existsAt(operation, at)) continue;
    const item = paths[operation.path] ?? {};
    item[operation.method] = operationObject(service, operation, at);
    paths[operation.path] = item;
    tags.add(operation.tag);
  }
  const sharedParameters = shareParameters(paths);
  const first = service.versions[0] as string;
  const last = service.versions[service.versions.length - 1] as string;
  return {
    openapi: '3.1.0',
    info: {
      title: service.title,
      version,
      description:
        `${service.description}\n\nThis document describes microversion ${version} ` +
        `(the service serves ${first} to ${last}); ask for it with the ` +
        `\`${service.versionHeader.name}\` header. Every answer, errors included, carries ` +
        `the headers listed under \`components.headers\`.`,
    },
    'x-openstack-microversion': version,
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      parameters: {
        microversion: {
          name: service.versionHeader.name,
          in: 'header',
          required: false,
          description:
            `The microversion asked for; without it the service answers at ${first}. ` +
            `This document describes the answers at ${version}.`,
          schema: { type: 'string' },
          example: service.versionHeader.example(version),
        },
        ...sharedParameters,
      },
      headers: Object.fromEntries(
        Object.entries(service.responseHeaders).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      ),
      schemas: { Error: embedded(service.errorSchema), ...sharedSchemas(service, at) },
      responses: {
        Error: {
          description: service.errorDescription,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      ...(service.tokenHeader === undefined
        ? {}
        : {
            securitySchemes: {
              token: { type: 'apiKey', in: 'header', name: service.tokenHeader },
            },
          }),
    },
    ...(service.tokenHeader === undefined ? {} : { security: [{ token: [] }] }),
  };
}

/** A document as committed and served: JSON indented by two, short values on one line. */
export function openApiText(service: OpenApiService, version: string): string {
  return `${stringify(openApiDocument(service, version), { maxLength: 100 })}\n`;
}

/**
 * The documents of one service as the API serves them, each built on first request and kept
 * (a few dozen versions at most). `text(file)` takes `X.Y.json`; undefined for any other name.
 */
export class OpenApiDocuments {
  readonly #service: OpenApiService;
  readonly #texts = new Map<string, string>();

  constructor(service: OpenApiService) {
    this.#service = service;
  }

  /** The document a file name asks for (`1.5.json`), as text; undefined for an unknown one. */
  text(file: string): string | undefined {
    const version = file.endsWith('.json') ? file.slice(0, -'.json'.length) : undefined;
    if (version === undefined || !this.#service.versions.includes(version)) return undefined;
    let known = this.#texts.get(version);
    if (known === undefined) {
      known = openApiText(this.#service, version);
      this.#texts.set(version, known);
    }
    return known;
  }
}
