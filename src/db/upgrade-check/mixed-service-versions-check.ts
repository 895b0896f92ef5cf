/**
 * Check: live services of one binary at different service versions (the
 * service-version spec). Normal in the middle of a rolling upgrade, a warning otherwise: a
 * restart was forgotten, and gated online migrations will keep waiting.
 */
import type { Database } from '../connect.ts';
import { type LivenessOptions, listServices } from '../services/index.ts';
import {
  type CheckResult,
  checkSuccess,
  checkWarning,
  type UpgradeCheck,
} from './upgrade-check.ts';

/** What mixedServiceVersionsCheck looks at. */
export interface MixedServiceVersionsCheckOptions extends LivenessOptions {
  /** Only these binaries (default: every binary in the table). */
  readonly binaries?: readonly string[];
  readonly name?: string;
}

/** The upgrade check that warns while live processes of a binary run different service versions. */
export function mixedServiceVersionsCheck(
  db: Database,
  options: MixedServiceVersionsCheckOptions = {},
): UpgradeCheck {
  return {
    name: options.name ?? 'Service versions',
    async run(): Promise<CheckResult> {
      const versions = new Map<string, Map<number, number>>();
      for (const service of await listServices(db, options)) {
        if (!service.live) continue;
        if (options.binaries && !options.binaries.includes(service.binary)) continue;
        const counts = versions.get(service.binary) ?? new Map<number, number>();
        counts.set(service.version, (counts.get(service.version) ?? 0) + 1);
        versions.set(service.binary, counts);
      }
      const mixed = [...versions].filter(([, counts]) => counts.size > 1);
      if (mixed.length === 0) return checkSuccess();
      const list = mixed
        .map(([binary, counts]) => {
          const parts = [...counts]
            .sort(([a], [b]) => a - b)
            .map(([version, n]) => `version ${version} on ${n} service(s)`);
          return `${binary}: ${parts.join(', ')}`;
        })
        .join('; ');
      return checkWarning(
        `Live services run different versions (${list}). Finish the rolling upgrade: ` +
          'upgrade and restart the older services.',
      );
    },
  };
}
