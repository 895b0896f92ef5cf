/**
 * The real `baremetal` client (python3-ironicclient 5.0.1) through the node actions against
 * Baton's API (listening, its conductor in this process) and the real Ironic 21.4.4, both
 * unpinned with console `fake` enabled beside `no-console`: console enable, show and disable
 * (and refused with no-console), inject NMI, boot mode and secure boot, node and driver vendor
 * passthru, a target RAID configuration set (and refused, and unset) and the driver's RAID
 * logical disk properties. Every command must exit the same and print the same once UUIDs, timestamps,
 * addresses and table widths are set aside.
 */
import { STANDALONE_ENABLED_INTERFACES } from '../../../src/baremetal/drivers/enabled-interfaces.ts';
import { unpinnedCaps } from './support/baton-api.ts';
import { describeCliSessionComparison } from './support/cli-session-comparison.ts';
import { type Command, cmd } from './support/cli-side.ts';

const CONSOLES = ['fake', 'no-console'];

/** A target RAID configuration as one argument (the session splits lines on spaces). */
const RAID = JSON.stringify({
  logical_disks: [
    { raid_level: '1', size_gb: 100, is_root_volume: true },
    { raid_level: '5', size_gb: 'MAX', controller: 'c', physical_disks: ['a', 'b'] },
  ],
});

/** A command after which the conductor's background work is awaited (a reservation). */
const settled = (line: string): Command => ({ ...cmd(line), settles: 'n1' });

const SESSION: readonly Command[] = [
  cmd('node create --driver fake-hardware --name n1 --console-interface fake'),
  cmd('node create --driver fake-hardware --name n2 --console-interface no-console'),
  cmd('node console show n1'),
  settled('node console enable n1'),
  cmd('node console show n1'),
  cmd('node console show n1 -f json'),
  settled('node console disable n1'),
  cmd('node console show n1'),
  cmd('node console enable n2'),
  cmd('node console show n2'),
  cmd('node inject nmi n1'),
  settled('node boot mode set n1 uefi'),
  cmd('node boot mode set n1 efi'),
  settled('node secure boot on n1'),
  cmd('node show n1 --fields boot_mode secure_boot last_error'),
  cmd('node passthru list n1'),
  cmd('node passthru call n1 third_method_sync --arg bar=meow'),
  cmd('node passthru call n1 third_method_sync --arg bar=woof'),
  settled('node passthru call n1 second_method --arg bar=kazoo'),
  cmd('node passthru call n1 second_method'),
  cmd('node passthru call n1 second_method --http-method GET --arg bar=x'),
  cmd('node passthru call n1 nope'),
  cmd('node passthru list n2'),
  cmd('driver passthru list fake-hardware'),
  cmd('driver passthru call fake-hardware first_method --arg bar=baz'),
  cmd('driver passthru list ipmi'),
  cmd(`node set n1 --target-raid-config ${RAID}`),
  cmd('node show n1 --fields raid_config target_raid_config'),
  cmd('node set n1 --target-raid-config {"logical_disks":[{"raid_level":"7","size_gb":1}]}'),
  cmd('node set n1 --target-raid-config {"logical_disks":[]}'),
  cmd(`node set n1 --raid-interface no-raid --target-raid-config ${RAID}`),
  cmd('node set n1 --raid-interface fake'),
  cmd('node unset n1 --target-raid-config'),
  cmd('node show n1 --fields target_raid_config -f json'),
  cmd('driver raid property list fake-hardware'),
  cmd('driver raid property list ipmi'),
];

describeCliSessionComparison(
  'a baremetal client session of node actions against Baton and the real Ironic',
  {
    real: { config: { DEFAULT: { enabled_console_interfaces: CONSOLES.join(',') } } },
    baton: {
      conductor: { enabledInterfaces: { ...STANDALONE_ENABLED_INTERFACES, console: CONSOLES } },
    },
    apiMax: unpinnedCaps().apiMax,
    session: SESSION,
  },
);
