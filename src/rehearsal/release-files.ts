/**
 * The recorded releases (`releases/<service>-<name>.json`): which one a rehearsal starts from.
 * `--from` names a release by name or alias; without it, the newest (highest API version).
 * Pure: takes the files' texts.
 */

export interface ReleaseFile {
  readonly service: string;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly commit: string;
  readonly api: string;
  readonly rpc: string;
  readonly objects: Readonly<Record<string, string>>;
}

/** A release file that cannot be read, or a release that no file names. */
export class ReleaseFileError extends Error {}

export function parseReleaseFile(text: string, path: string): ReleaseFile {
  let data: Partial<ReleaseFile>;
  try {
    data = JSON.parse(text) as Partial<ReleaseFile>;
  } catch (error) {
    throw new ReleaseFileError(`${path}: not JSON (${(error as Error).message})`);
  }
  for (const field of ['service', 'name', 'commit', 'api', 'rpc'] as const) {
    if (typeof data[field] !== 'string') throw new ReleaseFileError(`${path}: no "${field}"`);
  }
  if (!/^[0-9a-f]{40}$/.test(data.commit as string)) {
    throw new ReleaseFileError(`${path}: "commit" must be a full 40-digit commit id`);
  }
  return {
    service: data.service as string,
    name: data.name as string,
    aliases: data.aliases ?? [],
    commit: data.commit as string,
    api: data.api as string,
    rpc: data.rpc as string,
    objects: data.objects ?? {},
  };
}

const apiOrder = (version: string) => version.split('.').map(Number) as [number, number];

export function chooseRelease(
  files: readonly ReleaseFile[],
  service: string,
  from?: string,
): ReleaseFile {
  const ofService = files.filter((file) => file.service === service);
  if (from !== undefined) {
    const found = ofService.find((file) => file.name === from || file.aliases.includes(from));
    if (found === undefined) {
      const known = ofService.map((file) => [file.name, ...file.aliases].join('/')).join(', ');
      throw new ReleaseFileError(
        `no recorded ${service} release named '${from}' (recorded: ${known || 'none'})`,
      );
    }
    return found;
  }
  const sorted = [...ofService].sort((a, b) => {
    const [am, an] = apiOrder(a.api);
    const [bm, bn] = apiOrder(b.api);
    return bm - am || bn - an;
  });
  const newest = sorted[0];
  if (newest === undefined) throw new ReleaseFileError(`no recorded ${service} release`);
  return newest;
}
