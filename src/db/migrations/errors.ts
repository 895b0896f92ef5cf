/**
 * Why a migration run stopped or a service refuses its schema. The runner
 * returns these (it never throws); each message says what to do next.
 */
import { DatabaseError } from '../errors.ts';
import type { MigrationCommands } from './migration.ts';
import type { PolicyViolation } from './policy.ts';

/** The command that brings a database's schema up to this code. */
export function schemaUpgradeCommand(
  service: string,
  redactedUrl: string,
  commands?: MigrationCommands,
): string {
  const template = commands?.upgrade ?? `baton db upgrade --service ${service} --db {db}`;
  return template.replaceAll('{db}', redactedUrl);
}

/** The command that runs a service's online data migrations. */
export function onlineMigrationsCommand(service: string, commands?: MigrationCommands): string {
  return commands?.onlineMigrations ?? `baton db online-migrations --service ${service}`;
}

export class MigrationError extends DatabaseError {
  override name = 'MigrationError';
  readonly service: string;
  constructor(service: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.service = service;
  }
}

/** The set breaks the DB model change policy; nothing was run. */
export class MigrationPolicyError extends MigrationError {
  override name = 'MigrationPolicyError';
  readonly violations: readonly PolicyViolation[];
  constructor(service: string, violations: readonly PolicyViolation[]) {
    const lines = violations.map(
      (v) =>
        `  ${v.migration ?? service}${v.operation === undefined ? '' : ` #${v.operation}`}: ${v.message}`,
    );
    super(
      service,
      `the migrations of service ${service} break the DB model change policy; nothing was run:\n${lines.join('\n')}`,
    );
    this.violations = violations;
  }
}

/** An applied migration's operations were edited afterwards; nothing was run. */
export class MigrationChecksumError extends MigrationError {
  override name = 'MigrationChecksumError';
  readonly id: string;
  readonly recorded: string;
  readonly current: string;
  constructor(service: string, id: string, recorded: string, current: string) {
    super(
      service,
      `migration ${id} of service ${service} was applied with checksum ${recorded.slice(0, 12)}… but the code now has ${current.slice(0, 12)}…: an applied migration must not change; restore it as released and put the change in a new migration`,
    );
    this.id = id;
    this.recorded = recorded;
    this.current = current;
  }
}

/** A pending migration comes before an applied one: it was inserted into the history. */
export class MigrationOrderError extends MigrationError {
  override name = 'MigrationOrderError';
  readonly id: string;
  readonly appliedAfter: string;
  constructor(service: string, id: string, appliedAfter: string) {
    super(
      service,
      `migration ${id} of service ${service} is pending but ${appliedAfter}, which comes after it, is already applied: migrations are only ever appended; move ${id} after the last applied one`,
    );
    this.id = id;
    this.appliedAfter = appliedAfter;
  }
}

/** A migration waits for an online data migration to finish; earlier ones were applied. */
export class MigrationBlockedError extends MigrationError {
  override name = 'MigrationBlockedError';
  readonly id: string;
  readonly onlineMigration: string;
  readonly remaining: number;
  readonly command: string;
  constructor(
    service: string,
    id: string,
    onlineMigration: string,
    remaining: number,
    commands?: MigrationCommands,
  ) {
    const command = onlineMigrationsCommand(service, commands);
    super(
      service,
      `migration ${id} of service ${service} is blocked: online migration '${onlineMigration}' still has ${remaining} row(s) to migrate; run \`${command}\` until it reports nothing left, then run the upgrade again`,
    );
    this.id = id;
    this.onlineMigration = onlineMigration;
    this.remaining = remaining;
    this.command = command;
  }
}

/** An operation failed on the database. */
export class MigrationStepError extends MigrationError {
  override name = 'MigrationStepError';
  readonly id: string;
  readonly operation: number;
  /** Operations of this migration already applied and recorded (a re-run resumes after them). */
  readonly kept: number;
  constructor(
    service: string,
    id: string,
    operation: number,
    what: string,
    kept: number,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    const outcome =
      kept === 0
        ? 'nothing of this migration was kept'
        : `its first ${kept} operation(s) were applied and recorded; fix the cause and run the upgrade again to resume`;
    super(
      service,
      `migration ${id} of service ${service} failed at operation #${operation} (${what}): ${reason}; ${outcome}`,
      {
        cause,
      },
    );
    this.id = id;
    this.operation = operation;
    this.kept = kept;
  }
}

/** Another process held the migration lock for longer than the timeout. */
export class MigrationLockTimeoutError extends MigrationError {
  override name = 'MigrationLockTimeoutError';
  readonly timeoutMs: number;
  constructor(service: string, timeoutMs: number) {
    super(
      service,
      `another process has been migrating this database for more than ${timeoutMs} ms; wait for it to finish and run the upgrade again`,
    );
    this.timeoutMs = timeoutMs;
  }
}
