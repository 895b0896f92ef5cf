/**
 * The real `baremetal` client (python3-ironicclient 5.0.1) through a session of volume
 * connectors and targets, against Baton's API (listening, its conductor in this process) and
 * the real Ironic 21.4.4, both unpinned: every command must exit the same and print the same
 * once UUIDs, timestamps, addresses and table widths are set aside. The session creates both
 * kinds, meets their refusals (a taken connector ID, a node named or unknown, a node not powered
 * off), lists, shows, sets, unsets and deletes them. A 409 costs the client five retries (10 s):
 * one is enough here, the API scenarios (scenarios/volume.ts) have the others.
 */
import { unpinnedCaps } from './support/baton-api.ts';
import { describeCliSessionComparison } from './support/cli-session-comparison.ts';
import { type Command, cmd, UUID } from './support/cli-side.ts';

const IQN = 'iqn.2017-05.org.openstack:01:cli';
const uuidOf = (name: string) => ({ name, pattern: UUID });

const SESSION: readonly Command[] = [
  cmd('node create --driver fake-hardware --name v1 -f value -c uuid', uuidOf('n')),
  cmd('volume connector list'),
  cmd(
    `volume connector create --node {n} --type iqn --connector-id ${IQN} --extra k=v -f value -c uuid`,
    uuidOf('c1'),
  ),
  cmd(`volume connector create --node {n} --type iqn --connector-id ${IQN}`),
  // A node named, not by its UUID, and one that does not exist.
  cmd('volume connector create --node v1 --type ip --connector-id 10.0.0.1'),
  cmd('volume connector create --node {n} --type wwpn --connector-id 1234567890abcdef'),
  cmd(
    'volume connector create --node 0a1ce000-9999-4c5e-9a7b-000000000999 --type ip --connector-id 10.0.0.1',
  ),
  cmd('volume connector list'),
  cmd('volume connector list --long'),
  cmd('volume connector list --node v1 -f json'),
  cmd('volume connector list --fields uuid extra'),
  cmd('volume connector show {c1}'),
  cmd(
    'volume target create --node {n} --type iscsi --boot-index 0 --volume-id vol-0 -f value -c uuid',
    uuidOf('t0'),
  ),
  cmd(
    'volume target create --node {n} --type iscsi --boot-index 1 --volume-id vol-1 --property target_lun=1 --property auth_password=secret',
  ),
  cmd('volume target list'),
  cmd('volume target list --long'),
  cmd('volume target list --node v1 --sort boot_index:desc -f json'),
  cmd('volume target show {t0} -f json'),
  { ...cmd('node power on v1'), settles: 'v1' },
  cmd('volume connector set {c1} --extra a=b'),
  cmd('volume target delete {t0}'),
  { ...cmd('node power off v1'), settles: 'v1' },
  cmd('volume connector set {c1} --extra a=b --type ip --connector-id 10.0.0.2'),
  cmd('volume connector unset {c1} --extra k'),
  cmd('volume connector show {c1} -f json'),
  cmd('volume target set {t0} --boot-index 5 --property x=y'),
  cmd('volume target unset {t0} --property x'),
  cmd('volume target show {t0} -f json'),
  cmd('volume target delete {t0}'),
  cmd('volume target delete {t0}'),
  cmd('volume connector delete {c1}'),
  cmd('volume connector list'),
  cmd('volume target list -f json'),
];

describeCliSessionComparison(
  'a baremetal client session of volume connectors and targets against Baton and the real Ironic',
  {
    real: {},
    baton: {},
    apiMax: unpinnedCaps().apiMax,
    session: SESSION,
  },
);
