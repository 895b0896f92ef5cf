/**
 * Online data migration progress as gauges: rows still to migrate and rows migrated by the
 * current run, per migration. The runner sets them through its hooks as each batch commits
 * (`runOnlineMigrations(db, registry, {onBatch: gauges.onBatch})`, then `recordReport`), and
 * a pending-count probe (`findPendingOnlineMigrations`) can set the remaining rows of a
 * process that only watches.
 */
import { Gauge, type Registry } from 'prom-client';
import type { BatchProgress, OnlineMigrationsReport, PendingMigration } from '../../db/index.ts';

export class OnlineMigrationGauges {
  readonly #remaining: Gauge<'service' | 'migration'>;
  readonly #migrated: Gauge<'service' | 'migration'>;
  readonly #service: string;

  constructor(registry: Registry, service: string) {
    this.#service = service;
    this.#remaining = new Gauge({
      name: 'baton_online_migration_remaining_rows',
      help: 'Rows an online data migration still has to migrate, as last counted.',
      labelNames: ['service', 'migration'],
      registers: [registry],
    });
    this.#migrated = new Gauge({
      name: 'baton_online_migration_migrated_rows',
      help: 'Rows the current (or last) run of an online data migration has migrated.',
      labelNames: ['service', 'migration'],
      registers: [registry],
    });
  }

  #labels(migration: string) {
    return { service: this.#service, migration };
  }

  /** The runner's `onBatch` hook: after each committed batch. */
  readonly onBatch = (progress: BatchProgress): void => {
    const labels = this.#labels(progress.migration);
    if (progress.batch === 1) this.#migrated.set(labels, 0);
    this.#migrated.inc(labels, progress.migrated);
    this.#remaining.set(labels, Math.max(0, progress.total - progress.migrated));
  };

  /** A run's end: what each migration did and what remains (unknown for one not run). */
  recordReport(report: OnlineMigrationsReport): void {
    for (const migration of report.migrations) {
      if (migration.status === 'not-run') continue;
      const labels = this.#labels(migration.name);
      this.#migrated.set(labels, migration.migrated);
      if (migration.remaining !== undefined) this.#remaining.set(labels, migration.remaining);
    }
  }

  /** A probe's counts (`findPendingOnlineMigrations`); a failed probe leaves its gauge as it was. */
  recordPending(pending: readonly PendingMigration[]): void {
    for (const migration of pending) {
      if (migration.pending !== undefined) {
        this.#remaining.set(this.#labels(migration.name), migration.pending);
      }
    }
  }
}
