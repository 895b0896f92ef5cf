/**
 * `baton openapi --service NAME [--microversion X.Y] [--out DIR]`: the service's OpenAPI 3.1
 * document of a microversion (its highest by default) on stdout, or with `--out` every
 * version's (or the one asked for) written as DIR/X.Y.json. docs/openapi/ holds the output of
 * `npm run openapi`; a test fails when it differs from what the code generates.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type OpenApiService, openApiText } from '../microversion/index.ts';
import { EXIT, usageError } from './cli-error.ts';

/** Each service's operations table, loaded only by this command. */
const DOCUMENTED: Readonly<Record<string, () => Promise<OpenApiService>>> = {
  placement: async () => (await import('../placement/api/openapi-operations.ts')).PLACEMENT_OPENAPI,
  baremetal: async () => (await import('../baremetal/api/openapi-operations.ts')).BAREMETAL_OPENAPI,
};

export const OPENAPI_SERVICES: readonly string[] = Object.keys(DOCUMENTED);

export async function openApiServiceOf(name: string): Promise<OpenApiService> {
  const load = Object.hasOwn(DOCUMENTED, name) ? DOCUMENTED[name] : undefined;
  if (load === undefined) {
    throw usageError(
      `no OpenAPI documents for service ${name} (known: ${OPENAPI_SERVICES.join(', ')})`,
    );
  }
  return load();
}

export async function openApi(
  options: { readonly service: string; readonly microversion?: string; readonly out?: string },
  out: (line: string) => void,
): Promise<number> {
  const service = await openApiServiceOf(options.service);
  const { versions } = service;
  if (options.microversion !== undefined && !versions.includes(options.microversion)) {
    throw usageError(
      `${options.service} has no microversion ${options.microversion} (it serves ${versions[0]} to ${versions[versions.length - 1]})`,
    );
  }
  if (options.out === undefined) {
    out(
      openApiText(
        service,
        options.microversion ?? (versions[versions.length - 1] as string),
      ).trimEnd(),
    );
    return EXIT.ok;
  }
  const chosen = options.microversion === undefined ? versions : [options.microversion];
  await mkdir(options.out, { recursive: true });
  for (const version of chosen) {
    await writeFile(join(options.out, `${version}.json`), openApiText(service, version));
  }
  if (options.microversion === undefined) {
    // Writing them all: a document of a version no longer served goes (only X.Y.json files).
    for (const file of await readdir(options.out)) {
      const version = /^(\d+\.\d+)\.json$/.exec(file)?.[1];
      if (version !== undefined && !versions.includes(version)) await rm(join(options.out, file));
    }
  }
  out(`wrote ${chosen.length} OpenAPI document(s) of ${options.service} to ${options.out}`);
  return EXIT.ok;
}
