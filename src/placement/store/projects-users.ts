/**
 * Projects and users: the external (Keystone) ids of allocation owners, each stored once and
 * auto-created on first use. Consumers whose owner is unknown (allocations written before
 * microversion 1.8) belong to the configured "incomplete consumer" project and user.
 */
import type { Kysely } from 'kysely';
import type { Capabilities, Database } from '../../db/index.ts';
import type { PlacementConfig } from '../config.ts';
import { ensureKeyedRow, ensureKeyedRowWithin } from './external-ids.ts';
import type { PlacementTables } from './tables.ts';

export interface Owner {
  readonly projectExternalId: string;
  readonly userExternalId: string;
}

export interface OwnerIds {
  readonly projectId: number;
  readonly userId: number;
}

/** `[placement] incomplete_consumer_project_id` / `incomplete_consumer_user_id`. */
export function incompleteConsumerOwner(
  config: Pick<PlacementConfig, 'incompleteConsumerProjectId' | 'incompleteConsumerUserId'>,
): Owner {
  return {
    projectExternalId: config.incompleteConsumerProjectId,
    userExternalId: config.incompleteConsumerUserId,
  };
}

export function ensureProject(
  database: Database<PlacementTables>,
  externalId: string,
): Promise<number> {
  return ensureKeyedRow(database, 'projects', externalId);
}

export function ensureUser(
  database: Database<PlacementTables>,
  externalId: string,
): Promise<number> {
  return ensureKeyedRow(database, 'users', externalId);
}

/** Both rows' ids, created when missing. */
export async function ensureOwner(
  database: Database<PlacementTables>,
  owner: Owner,
): Promise<OwnerIds> {
  const projectId = await ensureProject(database, owner.projectExternalId);
  const userId = await ensureUser(database, owner.userExternalId);
  return { projectId, userId };
}

/**
 * Both rows' ids, created when missing inside the caller's transaction (an online
 * migration's batch), safe when several runners create them at once.
 */
export async function ensureOwnerWithin(
  db: Kysely<PlacementTables>,
  caps: Capabilities,
  owner: Owner,
): Promise<OwnerIds> {
  const projectId = await ensureKeyedRowWithin(db, caps, 'projects', owner.projectExternalId);
  const userId = await ensureKeyedRowWithin(db, caps, 'users', owner.userExternalId);
  return { projectId, userId };
}
