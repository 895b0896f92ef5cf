/**
 * Where Baton's Placement answers differently from the real Placement 8.0.0 on purpose, as the
 * conformance run (conformance/run.ts) sees it on PostgreSQL. Every entry is a decision written
 * down in docs/placement.md ("Deviations from the real service") or docs/security.md; the test
 * that runs the comparison in `npm test` (test/conformance/real-placement.test.ts) fails on any
 * other difference.
 *
 * Order is not a difference here: a list with the same elements in another order ("order only")
 * is allowed everywhere, since the real service leaves most orders to the database or to
 * Python's set order (docs/placement.md).
 */

export interface ConformanceSummary {
  scenarios: {
    name: string;
    requests: number;
    /** Set when the scenario stopped part-way (a request that could not be made). */
    failure?: string;
    differing: { title: string; request: string; where: string[] }[];
  }[];
}

export interface KnownDifference {
  readonly scenario: string;
  /** The step's title, as the scenario names it. */
  readonly step: string;
  readonly reason: string;
}

const NUL =
  'a NUL in the path: the real service hands it to PostgreSQL (a 500 with psycopg2 sentence, or a 404 where the lookup fails first); Baton answers 400 before the database (docs/placement.md, "A NUL character")';
const DUPLICATE_INVENTORY =
  "a refused POST /inventories: the real detail embeds the database driver's error, SQL and parameters; Baton's says which inventory is duplicated (docs/placement.md)";
const USAGES_138 =
  'GET /usages from 1.38: the real service fails with a 500 on PostgreSQL (its query groups by consumer type but selects the resource class); Baton answers as it does on MariaDB (docs/placement.md)';
const BOUNDED_MESSAGE =
  'a schema error naming the whole reshaper schema: Baton cuts any message at 8 KB (docs/security.md, "Bounded excerpts"); the text before the cut is the same';

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = [
  { scenario: 'a-envelope', step: 'unknown /resource_classes/VCPU%00', reason: NUL },
  { scenario: 'a-envelope', step: 'unknown /traits/CUSTOM_%00', reason: NUL },
  { scenario: 'a-inventories', step: 'duplicate class', reason: DUPLICATE_INVENTORY },
  { scenario: 'a-inventories', step: 'min above max', reason: DUPLICATE_INVENTORY },
  { scenario: 'a-aggregates-usages', step: 'usages by consumer type @1.38', reason: USAGES_138 },
  { scenario: 'a-aggregates-usages', step: 'usages one consumer type @1.38', reason: USAGES_138 },
  { scenario: 'b-reshaper', step: 'empty', reason: BOUNDED_MESSAGE },
  { scenario: 'b-reshaper', step: 'no allocations', reason: BOUNDED_MESSAGE },
  { scenario: 'b-reshaper', step: 'no inventories', reason: BOUNDED_MESSAGE },
  { scenario: 'b-reshaper', step: 'extra key', reason: BOUNDED_MESSAGE },
  {
    scenario: 'a-classes-traits',
    step: 'unknown traits',
    reason:
      'two unknown traits in one PUT: the real message names them in Python set order, which changes with every start; Baton names them in the order of the request (docs/placement.md, "More names in set order")',
  },
  {
    scenario: 'b-sharing',
    step: 'unsuffixed disk + granular vcpu',
    reason:
      'a group served wholly by a sharing provider: the real service keeps it under one tree (the first its set yields), Baton under every tree it reaches (docs/placement.md)',
  },
];

/** A difference is "order only" when every place it differs is a list's order. */
export function orderOnly(where: readonly string[]): boolean {
  return where.length > 0 && where.every((w) => w.endsWith('(order only)'));
}

/** The differences of a run that neither are order only nor are known, as readable lines. */
export function unexplained(summary: ConformanceSummary): string[] {
  return summary.scenarios.flatMap((scenario) => [
    ...(scenario.failure === undefined ? [] : [`${scenario.name}: ${scenario.failure}`]),
    ...scenario.differing
      .filter(
        (step) =>
          !orderOnly(step.where) &&
          !KNOWN_DIFFERENCES.some((k) => k.scenario === scenario.name && k.step === step.title),
      )
      .map(
        (step) => `${scenario.name} › ${step.title} (${step.request}): ${step.where.join(', ')}`,
      ),
  ]);
}
