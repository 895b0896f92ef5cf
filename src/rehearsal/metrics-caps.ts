/**
 * The caps in force a process reports on `/metrics` (the toolkit's deployment gauges):
 * `baton_caps_in_force_info{release,api_max,rpc_cap}` and one
 * `baton_caps_object_version_info{object,version}` per object type. Pure: parses the text.
 */

export interface ReportedCaps {
  readonly release: string;
  readonly apiMax: string;
  readonly rpcCap: string;
  readonly objects: Readonly<Record<string, string>>;
}

function labels(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
    found[match[1] as string] = match[2] as string;
  }
  return found;
}

export function capsFromMetrics(text: string): ReportedCaps | undefined {
  let caps: Omit<ReportedCaps, 'objects'> | undefined;
  const objects: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = line.match(
      /^(baton_caps_in_force_info|baton_caps_object_version_info)\{(.*)\}\s+1$/,
    );
    if (match === null) continue;
    const found = labels(match[2] as string);
    if (match[1] === 'baton_caps_in_force_info') {
      caps = {
        release: found.release ?? '',
        apiMax: found.api_max ?? '',
        rpcCap: found.rpc_cap ?? '',
      };
    } else if (found.object !== undefined && found.version !== undefined) {
      objects[found.object] = found.version;
    }
  }
  return caps === undefined ? undefined : { ...caps, objects };
}
