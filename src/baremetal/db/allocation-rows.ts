/** An allocations row as the Allocation it holds: its list columns are JSON text. */
import { Allocation, type AllocationObject } from '../objects/index.ts';
import { parseJsonColumns } from './codec.ts';
import { objectFromRow } from './object-rows.ts';
import type { Row } from './tables.ts';

/** The columns holding JSON lists (Ironic's JsonEncodedList); `extra` the dict parses itself. */
export const ALLOCATION_LIST_COLUMNS = ['traits', 'candidate_nodes'];

export const ALLOCATION_COLUMNS = [...Allocation.fieldNames, 'version'] as const;

export function allocationFromRow(row: Readonly<Row>): AllocationObject {
  return objectFromRow(Allocation, parseJsonColumns({ ...row }, ALLOCATION_LIST_COLUMNS));
}
