/**
 * The real `baremetal` client (python3-ironicclient 5.0.1) through a session of allocations and
 * deploy templates, against Baton's API (listening, its conductor in this process) and the
 * real Ironic 21.4.4, both unpinned: every command must exit the same and print the same once
 * UUIDs, timestamps, addresses and table widths are set aside. The session allocates a node by
 * resource class and trait (`allocation create --wait`), fails one, lists, updates, backfills
 * an active node, deploys through a deploy template the allocation's trait names, and deletes.
 */
import { unpinnedCaps } from './support/baton-api.ts';
import { describeCliSessionComparison } from './support/cli-session-comparison.ts';
import { type Command, cmd } from './support/cli-side.ts';

const STEPS =
  '[{"interface":"bios","step":"apply_configuration","args":{"settings":[]},"priority":150}]';
const CORE = '[{"interface":"deploy","step":"deploy","args":{},"priority":5}]';

const SESSION: readonly Command[] = [
  cmd('node create --driver fake-hardware --name c1 --resource-class gold'),
  cmd('node add trait c1 CUSTOM_GOLD'),
  cmd('node manage c1 --wait 60'),
  cmd('node provide c1 --wait 60'),
  { ...cmd('node power on c1'), settles: 'c1' },
  cmd('allocation list'),
  cmd(
    'allocation create --resource-class gold --trait CUSTOM_GOLD --name al1 --extra k=v --wait 60',
  ),
  cmd('allocation show al1'),
  cmd('allocation show al1 -f json'),
  cmd('allocation list --node c1'),
  cmd('allocation list --state active --long'),
  cmd('allocation list --resource-class gold -f json'),
  cmd('node show c1 --fields allocation_uuid instance_uuid instance_info'),
  cmd('allocation create --resource-class silver --name al-fail --wait 60'),
  cmd('allocation show al-fail -f value -c state -c last_error'),
  cmd('allocation create --name al-none'),
  cmd('allocation create --resource-class gold --candidate-node nope'),
  cmd('allocation set al1 --name al-one --extra a=b'),
  cmd('allocation unset al-one --extra k'),
  cmd('allocation show al-one -f json'),
  cmd('allocation set al-one --name al-fail'),
  cmd(`deploy template create CUSTOM_GOLD --steps ${STEPS} --extra x=y`),
  cmd(`deploy template create lowercase --steps ${STEPS}`),
  cmd('deploy template create CUSTOM_EMPTY --steps []'),
  cmd('deploy template create CUSTOM_BAD --steps not-json'),
  cmd('deploy template list'),
  cmd('deploy template list --long'),
  cmd('deploy template show CUSTOM_GOLD'),
  cmd('deploy template set CUSTOM_GOLD --extra z=1'),
  cmd('deploy template unset CUSTOM_GOLD --extra x'),
  cmd('deploy template show CUSTOM_GOLD -f json'),
  cmd('node validate c1'),
  cmd('node deploy c1 --wait 60'),
  cmd('node show c1 --fields provision_state instance_info allocation_uuid'),
  cmd('allocation delete al-one'),
  cmd('node undeploy c1 --wait 60'),
  cmd('allocation show al-one'),
  cmd('node deploy c1 --wait 60'),
  cmd('allocation create --node c1 --name bf1'),
  cmd('allocation show bf1 -f json'),
  cmd('node show c1 --fields allocation_uuid instance_uuid instance_info'),
  cmd('node undeploy c1 --wait 60'),
  cmd(`deploy template create CUSTOM_CORE --steps ${CORE}`),
  cmd('node add trait c1 CUSTOM_CORE'),
  cmd('node set c1 --instance-info traits=["CUSTOM_CORE"]'),
  cmd('node validate c1'),
  cmd('node deploy c1'),
  cmd('allocation list'),
  cmd('allocation delete al-fail'),
  cmd('allocation delete al-fail'),
  cmd('deploy template delete CUSTOM_GOLD CUSTOM_CORE'),
  cmd('deploy template delete CUSTOM_GOLD'),
  cmd('deploy template list'),
];

describeCliSessionComparison(
  'a baremetal client session of allocations and deploy templates against Baton and the real Ironic',
  {
    real: { automatedClean: false },
    baton: { conductor: { automatedClean: false } },
    apiMax: unpinnedCaps().apiMax,
    session: SESSION,
  },
);
