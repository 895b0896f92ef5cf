import type { Scenario } from '../pair.ts';
import { aAggregatesUsages } from './a-aggregates-usages.ts';
import { aClassesTraits } from './a-classes-traits.ts';
import { aEnvelope } from './a-envelope.ts';
import { aInventories } from './a-inventories.ts';
import { aProviders } from './a-providers.ts';
import { bAllocations } from './b-allocations.ts';
import { bCandidates } from './b-candidates.ts';
import { bConsumerStates } from './b-consumer-states.ts';
import { bEdges } from './b-edges.ts';
import { bFuzzCandidates } from './b-fuzz-candidates.ts';
import { bReshaper } from './b-reshaper.ts';
import { bSharing } from './b-sharing.ts';
import { root } from './root.ts';

/** Every scenario, in the order they run. */
export const SCENARIOS: readonly Scenario[] = [
  root,
  aEnvelope,
  aProviders,
  aInventories,
  aClassesTraits,
  aAggregatesUsages,
  bAllocations,
  bConsumerStates,
  bCandidates,
  bReshaper,
  bEdges,
  bSharing,
  bFuzzCandidates,
];
