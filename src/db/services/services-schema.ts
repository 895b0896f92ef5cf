/**
 * Changes to `baton_services` after its first shape. The table itself is
 * created on first use (services-table.ts); every later change is a
 * migration of the `baton_services` history, so it is held to the same
 * expand-only policy as a service's own schema: older code that never heard
 * of a column keeps inserting and reading its rows.
 */
import type { MigrationSet } from '../migrations/migration.ts';

/** The migrations of the services table. */
export const SERVICES_SCHEMA: MigrationSet = {
  service: 'baton_services',
  releases: ['2026.1'],
  deprecations: [],
  migrations: [
    {
      id: '0001_rpc_address',
      release: '2026.1',
      description: 'Where a service listens for RPC (the http transport), NULL when it does not',
      operations: [
        {
          op: 'addColumn',
          table: 'baton_services',
          column: { name: 'rpc_address', type: 'string(255)' },
        },
      ],
    },
    {
      id: '0002_caps',
      release: '2026.1',
      description:
        'The release a process is pinned to and the release whose versions it writes and sends (its caps), NULL for none: what `baton upgrade plan` reads',
      operations: [
        {
          op: 'addColumn',
          table: 'baton_services',
          column: { name: 'pin_release', type: 'string(255)' },
        },
        {
          op: 'addColumn',
          table: 'baton_services',
          column: { name: 'caps_release', type: 'string(255)' },
        },
      ],
    },
    {
      id: '0003_process',
      release: '2026.1',
      description:
        'Who a row is: the process id and machine that claimed its identity, its state (starting, serving, stopping), where it serves, its config files, and why it is not healthy when it is not',
      operations: [
        { op: 'addColumn', table: 'baton_services', column: { name: 'pid', type: 'integer' } },
        {
          op: 'addColumn',
          table: 'baton_services',
          column: { name: 'machine', type: 'string(255)' },
        },
        { op: 'addColumn', table: 'baton_services', column: { name: 'state', type: 'string(16)' } },
        {
          op: 'addColumn',
          table: 'baton_services',
          column: { name: 'address', type: 'string(255)' },
        },
        {
          op: 'addColumn',
          table: 'baton_services',
          column: { name: 'config_files', type: 'text' },
        },
        { op: 'addColumn', table: 'baton_services', column: { name: 'health', type: 'text' } },
      ],
    },
  ],
};
