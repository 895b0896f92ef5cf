/**
 * The caps in force as the deployment decides them (the service-version spec): the live processes of the
 * service's binaries in the services table name the oldest release still running, whose
 * versions cap RPC and objects unless the operator pinned a release; a live process older
 * than the previous release refuses the start. Read at start and again on SIGHUP.
 */
import { type Database, type LivenessOptions, listServices } from '../db/index.ts';
import {
  type CapsInForce,
  codeServiceVersion,
  deploymentCaps,
  describeCapsSource,
  type LiveService,
  oldestSupportedVersion,
  previousRelease,
  servicesTooOld,
} from '../releases/index.ts';
import { ServiceTooOldError } from './process-registration.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** What the services table says of the service's deployment. */
export interface DeploymentView {
  /** The live processes of the service's binaries. */
  readonly live: readonly LiveService[];
  /** The caps in force for this pin and these processes. */
  readonly caps: CapsInForce;
  /** Live processes too old for this code to talk to (older than the previous release). */
  readonly tooOld: readonly LiveService[];
}

/** Refused to start: a live process of the deployment is older than the previous release. */
export class DeploymentTooOldError extends ServiceTooOldError {
  override name = 'DeploymentTooOldError';
  readonly services: readonly LiveService[];
  constructor(message: string, services: readonly LiveService[]) {
    super(message);
    this.services = services;
  }
}

/** Reads the live processes of the service's binaries and the caps they call for. */
export async function readDeployment(
  db: Database,
  service: ServiceDefinition,
  pin: string | undefined,
  liveness: LivenessOptions = {},
): Promise<DeploymentView> {
  const rows = await listServices(db, liveness);
  const live = rows
    .filter((row) => row.live && service.binaries.includes(row.binary))
    .map(({ binary, host, version }) => ({ binary, host, version }));
  return {
    live,
    caps: deploymentCaps(service.releases, pin, live),
    tooOld: servicesTooOld(service.releases, live),
  };
}

/** The refusal's message: who is too old, what this code talks to, and what to do. */
export function tooOldMessage(service: ServiceDefinition, tooOld: readonly LiveService[]): string {
  const mapping = service.releases;
  const oldest = oldestSupportedVersion(mapping);
  const previous = previousRelease(mapping);
  const who = tooOld
    .map((s) => `${s.binary} on ${s.host} (service version ${s.version})`)
    .join(', ');
  const talksTo =
    previous === undefined
      ? `service version ${oldest}, its own`
      : `its previous release ${previous} (service version ${oldest}) and newer`;
  return (
    `the ${service.name} deployment runs services too old for this release ` +
    `(${service.release}, service version ${codeServiceVersion(mapping)}) to talk to: ${who}; ` +
    `this release talks to ${talksTo}. Upgrade those services to release ` +
    `${previous ?? service.release} first (a rolling upgrade goes one release at a time), or stop ` +
    'them; a stopped process counts once its row is dead (`baton db services --remove-dead` forgets it).'
  );
}

/**
 * At start: the deployment's caps for the pin, or DeploymentTooOldError (exit 1) naming the
 * live processes this code cannot talk to.
 */
export async function checkDeployment(
  db: Database,
  service: ServiceDefinition,
  pin: string | undefined,
  liveness: LivenessOptions = {},
): Promise<DeploymentView> {
  const view = await readDeployment(db, service, pin, liveness);
  if (view.tooOld.length > 0) {
    throw new DeploymentTooOldError(tooOldMessage(service, view.tooOld), view.tooOld);
  }
  return view;
}

/** The caps as one line for operators: source, then what they cap. */
export function capsSummary(caps: CapsInForce, service: ServiceDefinition): string {
  const parts = [`caps in force: ${describeCapsSource(caps)}`];
  if (caps.rpcCap !== undefined) parts.push(`RPC cap ${caps.rpcCap}`);
  if (caps.apiMax !== undefined) parts.push(`API max ${caps.apiMax}`);
  const objects = Object.entries(service.code.objects).map(
    ([type, latest]) => `${type} ${caps.objectTargets.objectVersion(type, latest)}`,
  );
  if (objects.length > 0) parts.push(`objects ${objects.join(', ')}`);
  return parts.join('; ');
}

/** The caps as data (`baton db services --json`). */
export function capsAsJson(caps: CapsInForce, service: ServiceDefinition) {
  const objects: Record<string, string> = {};
  for (const [type, latest] of Object.entries(service.code.objects))
    objects[type] = caps.objectTargets.objectVersion(type, latest);
  return {
    source: caps.source.kind,
    description: describeCapsSource(caps),
    release: caps.release ?? null,
    ...(caps.source.kind === 'auto'
      ? {
          from: {
            binary: caps.source.binary,
            host: caps.source.host,
            serviceVersion: caps.source.serviceVersion,
          },
        }
      : {}),
    apiMax: caps.apiMax ?? null,
    rpcCap: caps.rpcCap ?? null,
    objects,
  };
}
