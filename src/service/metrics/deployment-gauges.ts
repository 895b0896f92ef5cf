/**
 * Where the deployment stands, as this process sees it: the caps in force (the release
 * they come from, the API max microversion, the RPC version cap, and each object type's
 * target version, as info-style gauges whose labels carry the versions), and, from the
 * services table as last read, the lowest live service version and the live process count
 * of each binary of the service.
 */
import { Gauge, type Registry } from 'prom-client';
import type { CapsInForce, CapsSource } from '../../releases/index.ts';
import type { CodeVersions } from '../code-versions.ts';
import type { ServicesSnapshot } from '../services-watch.ts';

/** The release label when nothing is pinned: the code's own versions. */
export const UNPINNED_RELEASE = 'master';
/** The label of a cap the service does not have (no API, no RPC). */
const NONE = 'none';

export class DeploymentGauges {
  readonly #caps: Gauge<'release' | 'source' | 'api_max' | 'rpc_cap'>;
  readonly #objects: Gauge<'object' | 'version'>;

  constructor(registry: Registry, services: () => ServicesSnapshot | undefined) {
    const registers = [registry];
    this.#caps = new Gauge({
      name: 'baton_caps_in_force_info',
      help: 'The caps in force: their release (master when latest), where they come from (pin, auto from the oldest live service, latest), API max microversion and RPC version cap (always 1).',
      labelNames: ['release', 'source', 'api_max', 'rpc_cap'],
      registers,
    });
    this.#objects = new Gauge({
      name: 'baton_caps_object_version_info',
      help: 'The version of each object type written to the database and sent over RPC (always 1).',
      labelNames: ['object', 'version'],
      registers,
    });
    new Gauge({
      name: 'baton_service_minimum_version',
      help: 'The lowest service version among the live processes of each binary (services table).',
      labelNames: ['binary'],
      registers,
      collect() {
        this.reset();
        for (const [binary, state] of services()?.binaries ?? []) {
          if (state.minimumVersion !== undefined) this.set({ binary }, state.minimumVersion);
        }
      },
    });
    new Gauge({
      name: 'baton_service_live_processes',
      help: 'Live processes of each binary in the services table.',
      labelNames: ['binary'],
      registers,
      collect() {
        this.reset();
        for (const [binary, state] of services()?.binaries ?? []) {
          this.set({ binary }, state.liveProcesses);
        }
      },
    });
  }

  /** Sets the caps gauges (again, when a refresh changes the caps). */
  setCaps(caps: CapsInForce, code: CodeVersions): void {
    this.#caps.reset();
    this.#caps.set(
      {
        release: caps.release ?? UNPINNED_RELEASE,
        source: sourceLabel(caps.source),
        api_max: caps.apiMax ?? NONE,
        rpc_cap: caps.rpcCap ?? NONE,
      },
      1,
    );
    this.#objects.reset();
    for (const [object, latest] of Object.entries(code.objects)) {
      this.#objects.set({ object, version: caps.objectTargets.objectVersion(object, latest) }, 1);
    }
  }
}

/** `pin`, `latest`, or `auto from <binary>@<service version>` (the host stays out of the label). */
function sourceLabel(source: CapsSource): string {
  return source.kind === 'auto'
    ? `auto from ${source.binary}@${source.serviceVersion}`
    : source.kind;
}
