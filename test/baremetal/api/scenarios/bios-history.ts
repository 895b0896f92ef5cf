/**
 * BIOS settings (API 1.40, registry fields 1.74) and node history (1.78) unpinned on both sides
 * (real-ironic-antelope.test.ts) and pinned to zed (real-ironic-api.test.ts): the version
 * gates, fake hardware's BIOS clean steps writing the settings, the list and one setting with `detail` and `fields`, their refusals; a
 * deployment failing with fake hardware (a deploy template disabling `deploy.deploy`) and the
 * history event the conductor records, its forms, pages and refusals.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';

const UNKNOWN = '6f1c1a77-0000-4000-8000-000000000000';

/**
 * The scenarios at API version `V` (1.82 unpinned, 1.80 pinned to zed), on nodes and a
 * template of their own (`suffix`: two hex digits), so both runs can share a database;
 * `keepRows` leaves the settings and the history in place (no factory reset, no deletion), for
 * a look at the rows written.
 */
export function biosHistoryScenarios(V: string, suffix: string, keepRows = false): Scenario[] {
  const B1 = `b1050000-03f2-4d2e-ae87-c02d7f33c${suffix}b`;
  const H1 = `b1050000-03f2-4d2e-ae87-c02d7f33c${suffix}e`;
  const provision = (
    uuid: string,
    target: string,
    extra: Record<string, unknown> = {},
  ): Exchange => ({
    method: 'PUT',
    path: `/v1/nodes/${uuid}/states/provision`,
    version: V,
    body: { target, ...extra },
    settle: uuid,
  });
  const clean = (uuid: string, step: string, args: Record<string, unknown> = {}) =>
    provision(uuid, 'clean', { clean_steps: [{ interface: 'bios', step, args }] });
  const states = (uuid: string): Exchange => ({
    path: `/v1/nodes/${uuid}?fields=provision_state,last_error`,
    version: V,
  });

  return [
    {
      title: 'BIOS settings: gates, fake hardware writing them, the list and one setting',
      steps: [
        {
          method: 'POST',
          path: '/v1/nodes',
          version: V,
          body: { uuid: B1, driver: 'fake-hardware', name: 'bios-1' },
        },
        { path: `/v1/nodes/${B1}/bios`, version: V },
        { path: `/v1/nodes/${B1}/bios`, version: '1.39' },
        { path: `/v1/nodes/bios-1/bios/X`, version: '1.39' },
        { path: `/v1/nodes/no-such-node/bios`, version: V },
        provision(B1, 'manage'),
        clean(B1, 'apply_configuration', {
          settings: [
            { name: 'LogicalProc', value: 'Enabled' },
            { name: 'NumLock', value: 'Off' },
          ],
        }),
        states(B1),
        { path: `/v1/nodes/${B1}/bios`, version: '1.40' },
        { path: `/v1/nodes/bios-1/bios`, version: V },
        { path: `/v1/nodes/bios-1/bios?detail=True`, version: V },
        { path: `/v1/nodes/bios-1/bios?detail=True`, version: '1.73' },
        { path: `/v1/nodes/bios-1/bios?fields=name,value`, version: '1.73' },
        { path: `/v1/nodes/bios-1/bios?fields=name,read_only`, version: V },
        { path: `/v1/nodes/bios-1/bios?fields=name&detail=True`, version: V },
        {
          path: `/v1/nodes/bios-1/bios?fields=name,bogus`,
          version: V,
          realBug: 'object_to_dict reads a field the setting does not have: AttributeError',
        },
        { path: `/v1/nodes/bios-1/bios?detail=maybe`, version: V },
        { path: `/v1/nodes/bios-1/bios?limit=1`, version: V },
        { path: `/v1/nodes/bios-1/bios/NumLock`, version: '1.40' },
        { path: `/v1/nodes/bios-1/bios/NumLock`, version: V },
        { path: `/v1/nodes/bios-1/bios/NoSuch`, version: V },
        { path: `/v1/nodes/bios-1/bios/a%20b`, version: V },
        { method: 'POST', path: `/v1/nodes/bios-1/bios`, version: V, body: {} },
        clean(B1, 'apply_configuration', {
          settings: [
            { name: 'LogicalProc', value: 'Disabled' },
            { name: 'BootMode', value: 'Uefi' },
          ],
        }),
        { path: `/v1/nodes/bios-1/bios?detail=True`, version: V },
        ...(keepRows
          ? []
          : [
              clean(B1, 'factory_reset'),
              { path: `/v1/nodes/bios-1/bios`, version: V },
              { method: 'DELETE', path: `/v1/nodes/${B1}`, version: V },
            ]),
      ],
    },
    {
      title: 'node history: gates, a failed deployment recorded, its forms and pages',
      steps: [
        {
          method: 'POST',
          path: '/v1/deploy_templates',
          version: V,
          body: {
            name: 'CUSTOM_HISTORY_OFF',
            steps: [{ interface: 'deploy', step: 'deploy', args: {}, priority: 0 }],
          },
        },
        {
          method: 'POST',
          path: '/v1/nodes',
          version: V,
          body: { uuid: H1, driver: 'fake-hardware', name: 'hist-1' },
        },
        { path: `/v1/nodes/${H1}/history`, version: V },
        { path: `/v1/nodes/${H1}/history`, version: '1.77' },
        { path: `/v1/nodes/hist-1/history/${UNKNOWN}`, version: '1.77' },
        {
          method: 'PUT',
          path: `/v1/nodes/${H1}/traits`,
          version: V,
          body: { traits: ['CUSTOM_HISTORY_OFF'] },
        },
        provision(H1, 'manage'),
        provision(H1, 'provide'),
        {
          method: 'PATCH',
          path: `/v1/nodes/${H1}`,
          version: V,
          body: [{ op: 'add', path: '/instance_info/traits', value: ['CUSTOM_HISTORY_OFF'] }],
        },
        provision(H1, 'active'),
        states(H1),
        { path: `/v1/nodes/${H1}/history`, version: V },
        { path: `/v1/nodes/hist-1/history?detail=True`, version: V },
        { path: `/v1/nodes/hist-1/history?limit=1`, version: V },
        { path: `/v1/nodes/hist-1/history?detail=true&limit=1`, version: V },
        { path: `/v1/nodes/hist-1/history?marker=${UNKNOWN}`, version: V },
        { path: `/v1/nodes/hist-1/history?marker=nope`, version: V },
        { path: `/v1/nodes/hist-1/history?limit=0`, version: V },
        { path: `/v1/nodes/hist-1/history?fields=uuid`, version: V },
        { path: `/v1/nodes/hist-1/history?sort_dir=desc`, version: V },
        { path: `/v1/nodes/hist-1/history/${UNKNOWN}`, version: V },
        { path: `/v1/nodes/hist-1/history/a%20b`, version: V },
        ...(keepRows
          ? []
          : [
              provision(H1, 'deleted'),
              states(H1),
              { method: 'DELETE', path: `/v1/nodes/${H1}`, version: V },
              { path: `/v1/nodes/${H1}/history`, version: V },
            ]),
      ],
    },
  ];
}

/** Unpinned (real-ironic-antelope.test.ts). */
export const BIOS_HISTORY_SCENARIOS: readonly Scenario[] = biosHistoryScenarios('1.82', '0a');
