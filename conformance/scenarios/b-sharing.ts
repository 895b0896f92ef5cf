/**
 * Allocation candidates where sharing providers meet nested trees: aggregates on a child
 * rather than the root, a sharing provider that is itself a child, one that also computes,
 * granular groups served by sharing providers, isolation, same_subtree, in_tree,
 * root_required and forbidden aggregates around them.
 */
import type { Scenario } from '../pair.ts';
import { a, aggregates, inventories, p, provider, traits } from './b-support.ts';

const R1 = p(1); // root, memory
const R1_NUMA = p(2); // child of R1, VCPU, in AGG1 (not its root)
const R2 = p(3); // flat root, VCPU + memory, in AGG2
const SHARED_DISK = p(4); // sharing DISK_GB, AGG1 + AGG2
const SHARED_CHILD = p(5); // sharing IPV4 as a child of R3, AGG2
const R3 = p(6); // root of SHARED_CHILD, VCPU
const SHARED_COMPUTE = p(7); // sharing DISK_GB that also has VCPU + memory, AGG3
const R4 = p(8); // flat root, VCPU + memory, in AGG3
const AGG1 = a(1);
const AGG2 = a(2);
const AGG3 = a(3);

export const bSharing: Scenario = {
  name: 'b-sharing',
  async run(pair) {
    await provider(pair, R1, 'r1');
    await provider(pair, R1_NUMA, 'r1-numa', R1);
    await provider(pair, R2, 'r2');
    await provider(pair, SHARED_DISK, 'shared-disk');
    await provider(pair, R3, 'r3');
    await provider(pair, SHARED_CHILD, 'r3-shared-ip', R3);
    await provider(pair, SHARED_COMPUTE, 'shared-compute');
    await provider(pair, R4, 'r4');
    await inventories(pair, R1, { MEMORY_MB: { total: 4096 } });
    await inventories(pair, R1_NUMA, { VCPU: { total: 4 } });
    await inventories(pair, R2, { VCPU: { total: 4 }, MEMORY_MB: { total: 4096 } });
    await inventories(pair, SHARED_DISK, { DISK_GB: { total: 100 } });
    await inventories(pair, R3, { VCPU: { total: 2 } });
    await inventories(pair, SHARED_CHILD, { IPV4_ADDRESS: { total: 8 } });
    await inventories(pair, SHARED_COMPUTE, {
      DISK_GB: { total: 50 },
      VCPU: { total: 2 },
      MEMORY_MB: { total: 1024 },
    });
    await inventories(pair, R4, { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 } });
    await traits(pair, R1, ['CUSTOM_ROOT_GOLD']);
    await traits(pair, R1_NUMA, ['HW_NUMA_ROOT']);
    await traits(pair, R2, ['CUSTOM_ROOT_GOLD']);
    await traits(pair, SHARED_DISK, ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_SSD']);
    await traits(pair, SHARED_CHILD, ['MISC_SHARES_VIA_AGGREGATE']);
    await traits(pair, SHARED_COMPUTE, ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_HDD']);
    await aggregates(pair, R1_NUMA, [AGG1]);
    await aggregates(pair, R2, [AGG2]);
    await aggregates(pair, SHARED_DISK, [AGG1, AGG2]);
    await aggregates(pair, SHARED_CHILD, [AGG2]);
    await aggregates(pair, SHARED_COMPUTE, [AGG3]);
    await aggregates(pair, R4, [AGG3]);
    const ask = (title: string, version: string, query: string) =>
      pair.req(title, { method: 'GET', path: `/allocation_candidates?${query}`, version });

    for (const version of ['1.28', '1.29']) {
      await ask(`vcpu + disk @${version}`, version, 'resources=VCPU:1,DISK_GB:10');
      await ask(
        `vcpu + memory + disk @${version}`,
        version,
        'resources=VCPU:1,MEMORY_MB:512,DISK_GB:10',
      );
      await ask(`vcpu + ip @${version}`, version, 'resources=VCPU:1,IPV4_ADDRESS:1');
      await ask(`disk only @${version}`, version, 'resources=DISK_GB:10');
      await ask(`disk + ip @${version}`, version, 'resources=DISK_GB:10,IPV4_ADDRESS:1');
    }
    await ask('vcpu + disk ssd', '1.29', 'resources=VCPU:1,DISK_GB:10&required=STORAGE_DISK_SSD');
    await ask(
      'vcpu + disk not ssd',
      '1.29',
      'resources=VCPU:1,DISK_GB:10&required=!STORAGE_DISK_SSD',
    );
    await ask(
      'vcpu + disk, numa required',
      '1.29',
      'resources=VCPU:1,DISK_GB:10&required=HW_NUMA_ROOT',
    );
    await ask('member_of agg1', '1.29', `resources=VCPU:1,DISK_GB:10&member_of=${AGG1}`);
    await ask('member_of agg3', '1.29', `resources=VCPU:1,DISK_GB:10&member_of=${AGG3}`);
    await ask('not agg1', '1.32', `resources=VCPU:1,DISK_GB:10&member_of=!${AGG1}`);
    await ask('in_tree r1', '1.31', `resources=VCPU:1,DISK_GB:10&in_tree=${R1}`);
    await ask(
      'in_tree of the shared disk',
      '1.31',
      `resources=VCPU:1,DISK_GB:10&in_tree=${SHARED_DISK}`,
    );
    await ask(
      'in_tree of the shared child',
      '1.31',
      `resources=VCPU:1,IPV4_ADDRESS:1&in_tree=${R3}`,
    );
    await ask(
      'root_required gold',
      '1.35',
      'resources=VCPU:1,DISK_GB:10&root_required=CUSTOM_ROOT_GOLD',
    );
    await ask(
      'root_required not gold',
      '1.35',
      'resources=VCPU:1,DISK_GB:10&root_required=!CUSTOM_ROOT_GOLD',
    );

    // Granular groups and sharing.
    await ask('granular disk', '1.29', 'resources=VCPU:1&resources1=DISK_GB:10');
    await ask('granular disk only', '1.29', 'resources1=DISK_GB:10');
    await ask(
      'granular two disks none',
      '1.29',
      'resources1=DISK_GB:10&resources2=DISK_GB:10&group_policy=none',
    );
    await ask(
      'granular two disks isolate',
      '1.29',
      'resources1=DISK_GB:10&resources2=DISK_GB:10&group_policy=isolate',
    );
    await ask(
      'granular vcpu and disk isolate',
      '1.29',
      'resources1=VCPU:1&resources2=DISK_GB:10&group_policy=isolate',
    );
    await ask('unsuffixed disk + granular vcpu', '1.29', 'resources=DISK_GB:10&resources1=VCPU:1');
    await ask(
      'unsuffixed vcpu,disk + granular ip',
      '1.29',
      'resources=VCPU:1,DISK_GB:10&resources1=IPV4_ADDRESS:1',
    );
    await ask(
      'granular member_of agg2 disk',
      '1.29',
      `resources=VCPU:1&resources1=DISK_GB:10&member_of1=${AGG2}`,
    );
    await ask(
      'same_subtree with a sharing group',
      '1.36',
      'resources_C=VCPU:1&resources_D=DISK_GB:10&same_subtree=_C,_D&group_policy=none',
    );
    await ask(
      'mappings with sharing',
      '1.34',
      'resources=MEMORY_MB:512&resources_C=VCPU:1&resources_D=DISK_GB:10&group_policy=none',
    );
    await ask('summaries at 1.27', '1.27', 'resources=VCPU:1,DISK_GB:10');
    await ask('limit equal to count', '1.29', 'resources=DISK_GB:10&limit=2');
  },
};
