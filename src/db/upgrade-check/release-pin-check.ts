/**
 * Check: the release pin. Pinned is right during a rolling upgrade and wrong
 * after it (new API microversions, RPC versions and object versions stay
 * off), so a pin is a warning that says to unpin once the upgrade is done.
 */
import {
  type CheckResult,
  checkSuccess,
  checkWarning,
  type UpgradeCheck,
} from './upgrade-check.ts';

/** What the check needs of the pin: a `ReleasePin` fits. */
export interface PinnedRelease {
  /** The pinned release (`pin_release_version`); undefined or empty when not pinned. */
  readonly release: string | undefined;
}

/** The upgrade check that warns while a release pin is set. */
export function releasePinCheck(
  pin: PinnedRelease,
  options: { readonly name?: string } = {},
): UpgradeCheck {
  return {
    name: options.name ?? 'Release pin',
    run(): CheckResult {
      const release = pin.release?.trim();
      if (!release) return checkSuccess();
      return checkWarning(
        `pin_release_version is set to ${release}. Unpin after the upgrade: once every ` +
          'service runs this release, remove the setting and restart the services.',
      );
    },
  };
}
