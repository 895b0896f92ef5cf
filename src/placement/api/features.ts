/**
 * Placement's features table: every behaviour a microversion brought, by name. Handlers ask
 * `request.microversion.atLeast(FEATURES.consumerGenerations)`, and version-windowed choices
 * are bounded by these gates (`FeatureWindows`); no other file under api/ or schemas/ writes a
 * version (test/placement/api/features.test.ts enforces it). Adding a microversion: a line in
 * PLACEMENT_VERSIONS, a line here, then the handlers that use the name (docs/microversion.md).
 * The comments follow the reference's history (placement/rest_api_version_history.rst).
 */
import { defineFeatures } from '../../microversion/index.ts';
import { PLACEMENT_VERSIONS } from './versions.ts';

export const FEATURES = defineFeatures(PLACEMENT_VERSIONS, {
  /** Providers, inventories, usages of a provider, allocations: the base API. */
  base: '1.0',
  /** GET and PUT /resource_providers/{uuid}/aggregates; the `aggregates` provider link. */
  providerAggregates: '1.1',
  /** /resource_classes: custom resource classes. */
  resourceClasses: '1.2',
  /** `member_of` on GET /resource_providers. */
  providerMemberOf: '1.3',
  /** `resources` on GET /resource_providers. */
  providerResourcesFilter: '1.4',
  /** DELETE /resource_providers/{uuid}/inventories (405 before). */
  deleteAllInventories: '1.5',
  /** /traits and /resource_providers/{uuid}/traits; the `traits` provider link. */
  traits: '1.6',
  /** PUT /resource_classes/{name} creates the class, bodiless, instead of renaming one. */
  putCreatesResourceClass: '1.7',
  /** `project_id` and `user_id` required in PUT /allocations/{consumer_uuid}. */
  allocationOwners: '1.8',
  /** GET /usages. */
  usages: '1.9',
  /** GET /allocation_candidates. */
  allocationCandidates: '1.10',
  /** The `allocations` provider link. */
  providerAllocationsLink: '1.11',
  /** Allocations keyed by provider (PUT, GET with project and user, candidates' requests). */
  allocationsAsDict: '1.12',
  /** POST /allocations: several consumers at once. */
  postAllocations: '1.13',
  /** Nested providers: `parent_provider_uuid`, `root_provider_uuid`, `in_tree`. */
  nestedProviders: '1.14',
  /** `last-modified` and `cache-control` headers. */
  cacheHeaders: '1.15',
  /** `limit` on GET /allocation_candidates. */
  candidateLimit: '1.16',
  /** `required` on GET /allocation_candidates; traits in provider summaries. */
  candidateTraits: '1.17',
  /** `required` on GET /resource_providers. */
  providerRequiredTraits: '1.18',
  /** Provider generation in the aggregates API, and its conflict check. */
  aggregateGenerations: '1.19',
  /** POST /resource_providers answers 200 with the provider instead of 201 without a body. */
  createProviderReturnsBody: '1.20',
  /** `member_of` on GET /allocation_candidates. */
  candidateMemberOf: '1.21',
  /** Forbidden traits (`!TRAIT`) in `required`. */
  forbiddenTraits: '1.22',
  /** `code` in error bodies. */
  errorCodes: '1.23',
  /** Several `member_of` parameters, ANDed. */
  multipleMemberOf: '1.24',
  /** Granular request groups (`resourcesN`, `requiredN`, `member_ofN`, `group_policy`). */
  granularGroups: '1.25',
  /** An inventory's `reserved` may equal its `total`. */
  reservedMayEqualTotal: '1.26',
  /** Provider summaries list every resource class of the provider, not just those requested. */
  summariesAllClasses: '1.27',
  /** Consumer generations: required on writes, shown on reads, 409 on mismatch. */
  consumerGenerations: '1.28',
  /** Nested providers in GET /allocation_candidates; parent and root in summaries. */
  nestedCandidates: '1.29',
  /** POST /reshaper. */
  reshaper: '1.30',
  /** `in_tree` and `in_treeN` on GET /allocation_candidates. */
  candidateInTree: '1.31',
  /** Forbidden aggregates (`!in:` and `!` in `member_of`). */
  forbiddenAggregates: '1.32',
  /** Request group suffixes of `[A-Za-z0-9_-]{1,64}`, not only numbers. */
  namedGroupSuffixes: '1.33',
  /** `mappings` (group suffix to providers) in allocation requests and allocation writes. */
  allocationMappings: '1.34',
  /** `root_required` on GET /allocation_candidates. */
  rootRequired: '1.35',
  /** `same_subtree`, and resourceless request groups named in it. */
  sameSubtree: '1.36',
  /** Re-parenting and un-parenting providers. */
  reparentProviders: '1.37',
  /** `consumer_type` on allocation writes and reads; usages by consumer type with counts. */
  consumerTypes: '1.38',
  /** `in:` (any of these traits) in `required` and `requiredN`. */
  anyTraits: '1.39',
});
