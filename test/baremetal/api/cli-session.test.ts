/**
 * The real `baremetal` client (python3-ironicclient 5.0.1) through an operator's session, run
 * against Baton's API (a listening server, its conductor in this process) and against the real
 * Ironic 21.4.4 pinned to zed: every command must exit the same and print the same, once UUIDs
 * (named by order of appearance), timestamps, addresses and table widths are set aside. The
 * session covers drivers, conductors, chassis, nodes (create, list, long list, show with
 * --fields, set, unset, delete), ports, port groups, traits, validate, power, boot device,
 * maintenance, the provisioning cycle with --wait, and the refusals a user meets.
 */
import { pinnedCaps } from './support/baton-api.ts';
import { describeCliSessionComparison } from './support/cli-session-comparison.ts';
import { type Command, cmd, UUID } from './support/cli-side.ts';

const SESSION: readonly Command[] = [
  cmd('driver list'),
  cmd('driver show fake-hardware'),
  cmd('driver property list fake-hardware'),
  cmd('conductor list'),
  cmd('conductor show 127.0.0.1 -f json'),
  cmd('chassis create --description rack-1 -f value -c uuid', { name: 'chassis', pattern: UUID }),
  cmd('chassis list'),
  cmd(
    'node create --driver fake-hardware --name s1 --property cpus=4 --chassis-uuid {chassis} -f value -c uuid',
    {
      name: 'node',
      pattern: UUID,
    },
  ),
  cmd('node create --driver fake-hardware --name s2 --resource-class gold'),
  cmd('node list'),
  cmd('node list --long -f json'),
  cmd('node list --resource-class gold'),
  cmd('node show s1 --fields uuid name provision_state driver chassis_uuid'),
  cmd('node set s1 --extra a=b --description hello --property memory_mb=1024'),
  cmd('node unset s1 --extra a'),
  cmd('node show s1 -f json'),
  cmd('port create 52:54:00:aa:bb:01 --node {node}'),
  cmd('port create 52:54:00:aa:bb:01 --node {node}'),
  cmd('port create bogus --node {node}'),
  cmd('port list'),
  cmd('port list --node s1 --long'),
  cmd('port group create --node {node} --name pg1 --address 52:54:00:aa:bb:0f'),
  cmd('port group list'),
  cmd('port group show pg1 -f json'),
  cmd('node add trait s1 CUSTOM_A CUSTOM_B'),
  cmd('node trait list s1'),
  cmd('node remove trait s1 CUSTOM_A'),
  cmd('node trait list s1'),
  cmd('node validate s1'),
  { ...cmd('node power on s1'), settles: 's1' },
  cmd('node show s1 --fields power_state'),
  cmd('node boot device set s1 pxe'),
  cmd('node boot device show s1'),
  cmd('node boot device set s1 disk'),
  cmd('node maintenance set s1 --reason broken'),
  cmd('node show s1 --fields maintenance maintenance_reason'),
  cmd('node maintenance unset s1'),
  cmd('node deploy s1'),
  cmd('node manage s1 --wait 60'),
  cmd('node provide s1 --wait 60'),
  cmd('node deploy s1 --wait 60'),
  cmd('node show s1 --fields provision_state target_provision_state power_state'),
  cmd('node delete s1'),
  cmd('node undeploy s1 --wait 60'),
  cmd('node show s1 --fields provision_state'),
  cmd('node show nope'),
  cmd('node create --driver ipmi'),
  cmd('chassis delete {chassis}'),
  cmd('node delete s1'),
  cmd('port list'),
  cmd('node delete s2'),
  cmd('chassis delete {chassis}'),
];

describeCliSessionComparison('a baremetal client session against Baton and the real Ironic', {
  real: { pinReleaseVersion: 'zed', automatedClean: false },
  baton: { conductor: { automatedClean: false }, caps: pinnedCaps('zed') },
  apiMax: pinnedCaps('zed').apiMax,
  session: SESSION,
});
