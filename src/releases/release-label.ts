/**
 * How a service's release is shown to people: as OpenStack names its series, the year number
 * with the name beside it from 2023.1 on (`2023.1 (antelope)`, `2026.1 (gazpacho)`), the name
 * alone before (`zed`, `yoga`). One kind for every service: the mappings key releases by
 * whatever their project used (Ironic's `antelope` and `21.4`, Placement's `2026.1`), and
 * `baton --version` printed `placement 2026.1` beside `baremetal antelope`. Values that are
 * typed (a pin, the caps' release) stay the mapping's keys. Pure.
 */

/** OpenStack's series with a year number: number, name (releases.openstack.org). */
const NUMBERED_SERIES: readonly (readonly [string, string])[] = [
  ['2023.1', 'antelope'],
  ['2023.2', 'bobcat'],
  ['2024.1', 'caracal'],
  ['2024.2', 'dalmatian'],
  ['2025.1', 'epoxy'],
  ['2025.2', 'flamingo'],
  ['2026.1', 'gazpacho'],
];

/** `2023.1 (antelope)` for `antelope` or `2023.1`; any other release as it is named. */
export function releaseLabel(release: string): string {
  const series = NUMBERED_SERIES.find(([number, name]) => release === number || release === name);
  return series === undefined ? release : `${series[0]} (${series[1]})`;
}
