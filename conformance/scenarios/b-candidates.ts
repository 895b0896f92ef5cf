/**
 * GET /allocation_candidates: every parameter at the versions where it appears or changes,
 * their errors, over nested trees (NUMA nodes with PFs under a compute root), a flat compute
 * and sharing storage providers (MISC_SHARES_VIA_AGGREGATE).
 */
import type { Pair, Scenario } from '../pair.ts';
import { a, aggregates, c, inventories, p, provider, resourceClass, traits } from './b-support.ts';

/** The topology: ids of providers by role. */
const CN1 = p(1); // root of a nested tree: memory, NUMA children with VCPU, PFs below those
const NUMA1 = p(2);
const NUMA2 = p(3);
const PF1 = p(4);
const PF2 = p(5);
const CN2 = p(6); // flat compute with its own disk
const SS1 = p(7); // sharing disk for agg1 and agg2
const SS2 = p(8); // sharing disk + IPs for agg1
const CN3 = p(9); // flat compute, no aggregate, partly used
const AGG1 = a(1);
const AGG2 = a(2);
const AGG3 = a(3); // nobody's

async function topology(pair: Pair): Promise<void> {
  await provider(pair, CN1, 'cn1');
  await provider(pair, NUMA1, 'cn1-numa1', CN1);
  await provider(pair, NUMA2, 'cn1-numa2', CN1);
  await provider(pair, PF1, 'cn1-numa1-pf1', NUMA1);
  await provider(pair, PF2, 'cn1-numa2-pf2', NUMA2);
  await provider(pair, CN2, 'cn2');
  await provider(pair, SS1, 'ss1');
  await provider(pair, SS2, 'ss2');
  await provider(pair, CN3, 'cn3');
  await resourceClass(pair, 'CUSTOM_FPGA');
  await inventories(pair, CN1, { MEMORY_MB: { total: 8192 } });
  await inventories(pair, NUMA1, { VCPU: { total: 4 } });
  await inventories(pair, NUMA2, { VCPU: { total: 8 }, CUSTOM_FPGA: { total: 1 } });
  await inventories(pair, PF1, { SRIOV_NET_VF: { total: 4 } });
  await inventories(pair, PF2, { SRIOV_NET_VF: { total: 4, max_unit: 2 } });
  await inventories(pair, CN2, {
    VCPU: { total: 16, allocation_ratio: 2.0 },
    MEMORY_MB: { total: 16384, min_unit: 512, step_size: 512 },
    DISK_GB: { total: 100, reserved: 20 },
  });
  await inventories(pair, SS1, { DISK_GB: { total: 1000 } });
  await inventories(pair, SS2, {
    DISK_GB: { total: 500, max_unit: 100 },
    IPV4_ADDRESS: { total: 10 },
  });
  await inventories(pair, CN3, { VCPU: { total: 4 }, MEMORY_MB: { total: 2048 } });
  await traits(pair, CN1, ['HW_CPU_X86_AVX2', 'CUSTOM_GOLD']);
  await traits(pair, NUMA1, ['HW_NUMA_ROOT']);
  await traits(pair, NUMA2, ['HW_NUMA_ROOT', 'CUSTOM_SILVER']);
  await traits(pair, PF1, ['CUSTOM_PHYSNET_A']);
  await traits(pair, PF2, ['CUSTOM_PHYSNET_B']);
  await traits(pair, CN2, ['HW_CPU_X86_SSE', 'CUSTOM_GOLD']);
  await traits(pair, SS1, ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_SSD']);
  await traits(pair, SS2, ['MISC_SHARES_VIA_AGGREGATE']);
  await traits(pair, CN3, ['HW_CPU_X86_SSE']);
  await aggregates(pair, CN1, [AGG1]);
  await aggregates(pair, CN2, [AGG2]);
  await aggregates(pair, SS1, [AGG1, AGG2]);
  await aggregates(pair, SS2, [AGG1]);
  await pair.req('use some of cn3', {
    method: 'PUT',
    path: `/allocations/${c(1)}`,
    version: '1.28',
    body: {
      allocations: { [CN3]: { resources: { VCPU: 3, MEMORY_MB: 1024 } } },
      project_id: 'p',
      user_id: 'u',
      consumer_generation: null,
    },
  });
}

export const bCandidates: Scenario = {
  name: 'b-candidates',
  async run(pair) {
    await topology(pair);
    const ask = (title: string, version: string | undefined, query: string) =>
      pair.req(title, { method: 'GET', path: `/allocation_candidates?${query}`, version });

    // Windows of the answer's shape.
    await ask('before 1.10', '1.9', 'resources=VCPU:1');
    await ask('no version', undefined, 'resources=VCPU:1');
    for (const version of ['1.10', '1.11', '1.12', '1.14', '1.15', '1.16', '1.17']) {
      await ask(`flat VCPU @${version}`, version, 'resources=VCPU:1');
    }
    for (const version of ['1.26', '1.27', '1.28', '1.29', '1.33', '1.34', '1.39']) {
      await ask(`VCPU+MEMORY @${version}`, version, 'resources=VCPU:1,MEMORY_MB:512');
    }
    for (const version of ['1.28', '1.29', '1.34']) {
      await ask(`VCPU+DISK (sharing) @${version}`, version, 'resources=VCPU:2,DISK_GB:50');
      await ask(`nested VF @${version}`, version, 'resources=VCPU:1,SRIOV_NET_VF:1');
    }
    await ask('disk only', '1.29', 'resources=DISK_GB:10');
    await ask('disk over a sharing max_unit', '1.29', 'resources=DISK_GB:150');
    await ask('disk + ip from sharing', '1.29', 'resources=DISK_GB:10,IPV4_ADDRESS:1');
    await ask('all of it', '1.29', 'resources=VCPU:1,MEMORY_MB:512,DISK_GB:10,SRIOV_NET_VF:1');
    await ask('step size and min unit', '1.29', 'resources=MEMORY_MB:700');
    await ask('capacity with ratio', '1.29', 'resources=VCPU:32');
    await ask('over capacity', '1.29', 'resources=VCPU:33');
    await ask('used capacity', '1.29', 'resources=VCPU:2,MEMORY_MB:1024');
    await ask('max_unit on a PF', '1.29', 'resources=SRIOV_NET_VF:3');
    await ask('class nobody has', '1.29', 'resources=PCI_DEVICE:1');
    await ask('custom class', '1.29', 'resources=CUSTOM_FPGA:1');

    // Errors of resources.
    await ask('no resources', '1.10', '');
    await ask('no resources 1.25', '1.25', '');
    await ask('no resources 1.36', '1.36', 'limit=1');
    await ask('empty resources', '1.29', 'resources=');
    await ask('no amount', '1.29', 'resources=VCPU');
    await ask('amount not a number', '1.29', 'resources=VCPU:x');
    await ask('amount zero', '1.29', 'resources=VCPU:0');
    await ask('negative amount', '1.29', 'resources=VCPU:-1');
    await ask('unknown class', '1.29', 'resources=CUSTOM_NOPE:1');
    await ask('lower-case class', '1.29', 'resources=vcpu:1');
    await ask('two colons', '1.29', 'resources=VCPU:1:2');
    await ask('unknown parameter', '1.29', 'resources=VCPU:1&foo=bar');
    await ask('duplicate resources', '1.29', 'resources=VCPU:1&resources=MEMORY_MB:1');

    // limit.
    await ask('limit too early', '1.15', 'resources=VCPU:1&limit=1');
    // Which N of more than N come back is not defined: the reference takes the first N of a
    // set ordered by string hashes (random per process). Only untruncated answers compare.
    await ask('limit 1 of one', '1.17', `resources=VCPU:1&required=CUSTOM_GOLD&limit=1`);
    await ask('limit equal to the count', '1.29', 'resources=VCPU:1&limit=4');
    await ask('limit 100', '1.16', 'resources=VCPU:1&limit=100');
    await ask('limit with a string', '1.16', 'resources=VCPU:1&limit=01');
    await ask('limit 0', '1.16', 'resources=VCPU:1&limit=0');
    await ask('limit not a number', '1.16', 'resources=VCPU:1&limit=a');
    await ask('limit negative', '1.16', 'resources=VCPU:1&limit=-1');
    await ask('limit empty', '1.16', 'resources=VCPU:1&limit=');

    // required, forbidden, in:.
    await ask('required too early', '1.16', 'resources=VCPU:1&required=HW_CPU_X86_SSE');
    await ask('required', '1.17', 'resources=VCPU:1&required=HW_CPU_X86_SSE');
    await ask('required on the root of a tree', '1.29', 'resources=VCPU:1&required=CUSTOM_GOLD');
    await ask(
      'required on a sharing provider',
      '1.29',
      'resources=VCPU:1,DISK_GB:1&required=STORAGE_DISK_SSD',
    );
    await ask('required unknown trait', '1.17', 'resources=VCPU:1&required=CUSTOM_NOPE');
    await ask('required two unknown traits', '1.17', 'resources=VCPU:1&required=CUSTOM_NOPE');
    await ask('required empty trait', '1.17', 'resources=VCPU:1&required=HW_CPU_X86_SSE,');
    await ask('required empty', '1.17', 'resources=VCPU:1&required=');
    await ask('forbidden too early', '1.21', 'resources=VCPU:1&required=!HW_CPU_X86_SSE');
    await ask('forbidden', '1.22', 'resources=VCPU:1&required=!HW_CPU_X86_SSE');
    await ask(
      'forbidden and required',
      '1.22',
      'resources=VCPU:1&required=CUSTOM_GOLD,!HW_CPU_X86_SSE',
    );
    await ask('conflicting traits', '1.22', 'resources=VCPU:1&required=CUSTOM_GOLD,!CUSTOM_GOLD');
    await ask('forbidden empty', '1.22', 'resources=VCPU:1&required=!');
    await ask('in: too early', '1.38', 'resources=VCPU:1&required=in:CUSTOM_GOLD,HW_CPU_X86_SSE');
    await ask('in:', '1.39', 'resources=VCPU:1&required=in:CUSTOM_GOLD,HW_CPU_X86_SSE');
    await ask(
      'in: and more',
      '1.39',
      'resources=VCPU:1&required=in:CUSTOM_GOLD,HW_CPU_X86_SSE&required=!CUSTOM_GOLD',
    );
    await ask(
      'in: with forbidden',
      '1.39',
      'resources=VCPU:1&required=in:!CUSTOM_GOLD,HW_CPU_X86_SSE',
    );
    await ask('in: empty trait', '1.39', 'resources=VCPU:1&required=in:CUSTOM_GOLD,');
    await ask(
      'repeated required before 1.39',
      '1.38',
      'resources=VCPU:1&required=CUSTOM_GOLD&required=HW_CPU_X86_SSE',
    );
    await ask(
      'repeated required 1.39',
      '1.39',
      'resources=VCPU:1&required=CUSTOM_GOLD&required=HW_CPU_X86_SSE',
    );
    await ask(
      'in: conflict',
      '1.39',
      'resources=VCPU:1&required=in:CUSTOM_GOLD&required=!CUSTOM_GOLD',
    );

    // member_of.
    await ask('member_of too early', '1.20', `resources=VCPU:1&member_of=${AGG1}`);
    await ask('member_of', '1.21', `resources=VCPU:1&member_of=${AGG2}`);
    await ask('member_of in:', '1.21', `resources=VCPU:1&member_of=in:${AGG1},${AGG2}`);
    await ask('member_of nobody', '1.21', `resources=VCPU:1&member_of=${AGG3}`);
    await ask('member_of with sharing', '1.29', `resources=VCPU:1,DISK_GB:10&member_of=${AGG1}`);
    await ask('member_of bad uuid', '1.21', 'resources=VCPU:1&member_of=nope');
    await ask('member_of comma', '1.21', `resources=VCPU:1&member_of=${AGG1},${AGG2}`);
    await ask(
      'member_of twice too early',
      '1.23',
      `resources=VCPU:1&member_of=${AGG1}&member_of=${AGG2}`,
    );
    await ask('member_of twice', '1.24', `resources=VCPU:1&member_of=${AGG1}&member_of=${AGG2}`);
    await ask(
      'member_of twice in:',
      '1.24',
      `resources=VCPU:1&member_of=in:${AGG1},${AGG2}&member_of=${AGG2}`,
    );
    await ask('member_of forbidden too early', '1.31', `resources=VCPU:1&member_of=!${AGG1}`);
    await ask('member_of forbidden', '1.32', `resources=VCPU:1&member_of=!${AGG1}`);
    await ask('member_of forbidden in:', '1.32', `resources=VCPU:1&member_of=!in:${AGG1},${AGG2}`);
    await ask('member_of forbidden bad', '1.32', 'resources=VCPU:1&member_of=!nope');

    // Granular groups.
    await ask('granular too early', '1.24', 'resources=VCPU:1&resources1=MEMORY_MB:512');
    await ask('granular one group', '1.25', 'resources1=VCPU:1');
    await ask('granular two groups without policy', '1.25', 'resources1=VCPU:1&resources2=VCPU:1');
    await ask('granular none', '1.25', 'resources1=VCPU:1&resources2=VCPU:1&group_policy=none');
    await ask(
      'granular isolate',
      '1.25',
      'resources1=VCPU:1&resources2=VCPU:1&group_policy=isolate',
    );
    await ask(
      'granular nested none',
      '1.29',
      'resources1=VCPU:1&resources2=VCPU:1&group_policy=none',
    );
    await ask(
      'granular nested isolate',
      '1.29',
      'resources1=VCPU:1&resources2=VCPU:1&group_policy=isolate',
    );
    await ask(
      'granular bad policy',
      '1.25',
      'resources1=VCPU:1&resources2=VCPU:1&group_policy=some',
    );
    await ask(
      'granular with unsuffixed',
      '1.29',
      'resources=MEMORY_MB:512&resources1=VCPU:1&required1=HW_NUMA_ROOT',
    );
    await ask(
      'granular VFs per physnet',
      '1.29',
      'resources=VCPU:1&resources1=SRIOV_NET_VF:1&required1=CUSTOM_PHYSNET_A&resources2=SRIOV_NET_VF:1&required2=CUSTOM_PHYSNET_B&group_policy=isolate',
    );
    await ask('granular orphan required', '1.25', 'resources=VCPU:1&required1=CUSTOM_GOLD');
    await ask('granular orphan member_of', '1.25', `resources=VCPU:1&member_of1=${AGG1}`);
    await ask(
      'granular member_of',
      '1.29',
      `resources=VCPU:1&resources1=DISK_GB:10&member_of1=${AGG2}`,
    );
    await ask('granular forbidden', '1.29', 'resources1=VCPU:1&required1=!HW_NUMA_ROOT');
    await ask('granular conflict', '1.29', 'resources1=VCPU:1&required1=CUSTOM_GOLD,!CUSTOM_GOLD');
    await ask('string suffix too early', '1.32', 'resources_A=VCPU:1');
    await ask(
      'string suffix',
      '1.33',
      'resources_A=VCPU:1&resources_B=SRIOV_NET_VF:1&group_policy=none',
    );
    await ask(
      'string suffix mappings',
      '1.34',
      'resources=MEMORY_MB:512&resources_CPU=VCPU:1&resources_NET=SRIOV_NET_VF:1&group_policy=isolate',
    );
    await ask('suffix too long', '1.33', `resources${'x'.repeat(65)}=VCPU:1`);
    await ask('numbered 0 suffix', '1.25', 'resources0=VCPU:1');

    // in_tree.
    await ask('in_tree too early', '1.30', `resources=VCPU:1&in_tree=${CN1}`);
    await ask('in_tree root', '1.31', `resources=VCPU:1&in_tree=${CN1}`);
    await ask('in_tree child', '1.31', `resources=VCPU:1&in_tree=${PF2}`);
    await ask('in_tree with sharing', '1.31', `resources=VCPU:1,DISK_GB:10&in_tree=${CN2}`);
    await ask(
      'in_tree of a sharing provider',
      '1.31',
      `resources=VCPU:1,DISK_GB:10&in_tree=${SS1}`,
    );
    await ask('in_tree unknown', '1.31', `resources=VCPU:1&in_tree=${p(99)}`);
    await ask('in_tree bad', '1.31', 'resources=VCPU:1&in_tree=nope');
    await ask(
      'in_tree granular',
      '1.31',
      `resources1=VCPU:1&in_tree1=${CN2}&resources2=VCPU:1&group_policy=none`,
    );
    await ask('in_tree orphan', '1.31', `resources=VCPU:1&in_tree1=${CN2}`);

    // root_required.
    await ask('root_required too early', '1.34', 'resources=VCPU:1&root_required=CUSTOM_GOLD');
    await ask('root_required', '1.35', 'resources=VCPU:1&root_required=CUSTOM_GOLD');
    await ask('root_required forbidden', '1.35', 'resources=VCPU:1&root_required=!CUSTOM_GOLD');
    await ask(
      'root_required of a child trait',
      '1.35',
      'resources=VCPU:1&root_required=HW_NUMA_ROOT',
    );
    await ask('root_required unknown', '1.35', 'resources=VCPU:1&root_required=CUSTOM_NOPE');
    await ask(
      'root_required twice',
      '1.35',
      'resources=VCPU:1&root_required=CUSTOM_GOLD&root_required=HW_CPU_X86_SSE',
    );
    await ask(
      'root_required conflict',
      '1.35',
      'resources=VCPU:1&root_required=CUSTOM_GOLD,!CUSTOM_GOLD',
    );
    await ask('root_required in:', '1.39', 'resources=VCPU:1&root_required=in:CUSTOM_GOLD');
    await ask('root_required empty', '1.35', 'resources=VCPU:1&root_required=');

    // same_subtree and resourceless groups.
    await ask('same_subtree too early', '1.35', 'resources_A=VCPU:1&same_subtree=_A');
    await ask(
      'same_subtree',
      '1.36',
      'resources_CPU=VCPU:1&resources_NET=SRIOV_NET_VF:1&same_subtree=_CPU,_NET&group_policy=none',
    );
    await ask(
      'same_subtree resourceless',
      '1.36',
      'resources_NET=SRIOV_NET_VF:1&required_NUMA=HW_NUMA_ROOT&same_subtree=_NET,_NUMA&resources_CPU=VCPU:1&group_policy=none',
    );
    await ask(
      'same_subtree resourceless alone',
      '1.36',
      'resources=VCPU:1&required_NUMA=HW_NUMA_ROOT&same_subtree=_NUMA',
    );
    await ask(
      'same_subtree resourceless not named',
      '1.36',
      'resources=VCPU:1&required_NUMA=HW_NUMA_ROOT',
    );
    await ask('same_subtree unknown suffix', '1.36', 'resources_A=VCPU:1&same_subtree=_A,_B');
    await ask('same_subtree empty', '1.36', 'resources_A=VCPU:1&same_subtree=_A,');
    await ask('same_subtree only resourceless', '1.36', 'required_A=HW_NUMA_ROOT&same_subtree=_A');
    await ask(
      'same_subtree twice',
      '1.36',
      'resources_A=VCPU:1&resources_B=SRIOV_NET_VF:1&resources_C=MEMORY_MB:512&same_subtree=_A,_B&same_subtree=_C&group_policy=none',
    );
    await ask(
      'same_subtree root and grandchild',
      '1.36',
      'resources_M=MEMORY_MB:512&resources_V=SRIOV_NET_VF:1&same_subtree=_M,_V&group_policy=none',
    );
    await ask(
      'same_subtree siblings',
      '1.36',
      'resources_A=SRIOV_NET_VF:1&required_A=CUSTOM_PHYSNET_A&resources_B=SRIOV_NET_VF:1&required_B=CUSTOM_PHYSNET_B&same_subtree=_A,_B&group_policy=isolate',
    );
    await ask(
      'granular in:',
      '1.39',
      'resources_N=SRIOV_NET_VF:1&required_N=in:CUSTOM_PHYSNET_A,CUSTOM_PHYSNET_B',
    );
    await ask(
      'granular in: and forbidden',
      '1.39',
      'resources_N=SRIOV_NET_VF:1&required_N=in:CUSTOM_PHYSNET_A,CUSTOM_PHYSNET_B&required_N=!CUSTOM_PHYSNET_A',
    );
    await ask(
      'root_required with granular',
      '1.35',
      'resources_C=VCPU:1&root_required=HW_CPU_X86_AVX2',
    );
    await ask(
      'same_subtree orphan member_of',
      '1.36',
      `resources=VCPU:1&member_of_X=${AGG1}&same_subtree=_X`,
    );

    // Accept.
    await pair.req('not acceptable', {
      method: 'GET',
      path: '/allocation_candidates?resources=VCPU:1',
      version: '1.29',
      headers: { accept: 'text/html' },
    });
  },
};
