/**
 * Where a starting process of a service decides what it may speak: its release mapping is
 * checked against its code, then the pin (`--pin-release-version` over the config file's
 * `[DEFAULT] pin_release_version`) is resolved once into the caps in force. The service's
 * composition root calls this and hands the value on; nothing else reads the pin.
 */
import {
  type CapsInForce,
  capsInForce,
  InvalidReleaseMappingError,
  validateReleaseMapping,
} from '../releases/index.ts';
import type { ServiceDefinition } from './service-definition.ts';

/** The pin as the process was given it: the flag wins over the file, even when empty. */
export interface PinSetting {
  /** `--pin-release-version` (an empty value unpins whatever the file says). */
  readonly flag?: string | undefined;
  /** `[DEFAULT] pin_release_version` from the service's config file. */
  readonly file?: string | undefined;
}

export function pinReleaseVersion(setting: PinSetting): string | undefined {
  return setting.flag ?? setting.file;
}

/**
 * Validates the service's release mapping (InvalidReleaseMappingError naming the service
 * and the entry) and resolves the pin (UnknownReleaseError listing the known releases).
 */
export function resolveCapsInForce(service: ServiceDefinition, setting: PinSetting): CapsInForce {
  try {
    validateReleaseMapping(service.releases, service.code);
    const own = service.releases[service.release];
    const code = service.code.serviceVersion;
    // The release this code is must report the code's service version, or a peer's version
    // would name the wrong release (a service version bumped without the mapping, or back).
    if (own !== undefined && code !== undefined && own.serviceVersion !== code) {
      throw new InvalidReleaseMappingError(
        `${service.release}: this code's release must have serviceVersion ${code} (the service version its processes report), not ${own.serviceVersion ?? 'none'}`,
        service.release,
      );
    }
  } catch (error) {
    if (error instanceof InvalidReleaseMappingError) {
      throw new InvalidReleaseMappingError(
        `the release mapping of service ${service.name} is invalid: ${error.message}`,
        error.entry,
      );
    }
    throw error;
  }
  return capsInForce(service.releases, pinReleaseVersion(setting));
}
