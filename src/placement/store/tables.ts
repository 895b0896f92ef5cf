/** Placement's tables as the query builder sees them (see migrations/0001-initial.ts). */
import type { Generated, Kysely } from 'kysely';

type Timestamps = { created_at: Date | string | null; updated_at: Date | string | null };

export interface NamedTable extends Timestamps {
  id: Generated<number>;
  name: string;
}

export interface ExternalIdTable extends Timestamps {
  id: Generated<number>;
  external_id: string;
}

export interface ResourceProvidersTable extends Timestamps {
  id: Generated<number>;
  uuid: string;
  name: string | null;
  generation: number;
  root_provider_id: number | null;
  parent_provider_id: number | null;
}

export interface InventoriesTable extends Timestamps {
  id: Generated<number>;
  resource_provider_id: number;
  resource_class_id: number;
  total: number;
  reserved: number;
  min_unit: number;
  max_unit: number;
  step_size: number;
  allocation_ratio: number;
}

export interface ConsumersTable extends Timestamps {
  id: Generated<number>;
  uuid: string;
  project_id: number;
  user_id: number;
  generation: number;
  consumer_type_id: number | null;
}

export interface AllocationsTable extends Timestamps {
  id: Generated<number>;
  resource_provider_id: number;
  consumer_id: string;
  resource_class_id: number;
  used: number;
}

export interface ProviderTraitsTable extends Timestamps {
  trait_id: number;
  resource_provider_id: number;
}

export interface AggregatesTable extends Timestamps {
  id: Generated<number>;
  uuid: string;
}

export interface ProviderAggregatesTable extends Timestamps {
  resource_provider_id: number;
  aggregate_id: number;
}

export interface PlacementTables {
  resource_classes: NamedTable;
  traits: NamedTable;
  consumer_types: NamedTable;
  projects: ExternalIdTable;
  users: ExternalIdTable;
  resource_providers: ResourceProvidersTable;
  inventories: InventoriesTable;
  consumers: ConsumersTable;
  allocations: AllocationsTable;
  resource_provider_traits: ProviderTraitsTable;
  placement_aggregates: AggregatesTable;
  resource_provider_aggregates: ProviderAggregatesTable;
}

export type PlacementDb = Kysely<PlacementTables>;
