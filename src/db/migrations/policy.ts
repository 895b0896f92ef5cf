/**
 * The DB model change policy (the rolling-upgrade doc and spec), as code. During a rolling
 * upgrade the previous release's code runs against the new schema, so a
 * migration may only expand it: new tables, nullable or defaulted columns,
 * indexes. Renames, type/size/nullability changes and early drops are refused;
 * write locks on existing tables are flagged for the release notes and need
 * an acknowledgement. Pure: it reads the set, never a database.
 */
import type { Backend } from '../database-url.ts';
import { definitionProblems } from './definition-checks.ts';
import type { Migration, MigrationSet } from './migration.ts';
import { operationRules } from './policy-rules.ts';

/** A rule of the database change policy that a migration can break. */
export type PolicyRule =
  | 'rename-column'
  | 'alter-column'
  | 'rename-table'
  | 'drop-not-deprecated'
  | 'drop-too-early'
  | 'not-null-without-default'
  | 'unacknowledged-lock'
  | 'unreviewed-sql'
  | 'invalid-definition'
  | 'unknown-release'
  | 'release-order'
  | 'duplicate-id';

/** One operation of a migration that breaks a rule of the change policy. */
export interface PolicyViolation {
  readonly rule: PolicyRule;
  /** What is refused and what to do instead. */
  readonly message: string;
  /** The migration's id (absent for a problem of the set as a whole). */
  readonly migration?: string;
  /** Index of the operation in the migration, when one is at fault. */
  readonly operation?: number;
}

/** A write lock (or unreadable raw SQL) to mention in the release notes. */
export interface LockWarning {
  readonly migration: string;
  readonly operation: number;
  readonly table?: string;
  /** The backends on which it happens. */
  readonly backends: readonly Backend[];
  readonly message: string;
  /** The migration's `acknowledgeLocks`, or a raw SQL operation's `reviewed`. */
  readonly acknowledged?: string;
}

/** The policy's view of one migration: its id, its operations and the exceptions it declares. */
export interface MigrationPolicy {
  readonly id: string;
  readonly release: string;
  readonly violations: readonly PolicyViolation[];
  readonly lockWarnings: readonly LockWarning[];
}

/** What the change policy found in a set of migrations. */
export interface PolicyReport {
  /** No violation anywhere: the set may run. */
  readonly ok: boolean;
  /** Problems of the set itself (releases, deprecations). */
  readonly problems: readonly PolicyViolation[];
  readonly migrations: readonly MigrationPolicy[];
}

function setProblems(set: MigrationSet): PolicyViolation[] {
  const problems: PolicyViolation[] = [];
  const seen = new Set<string>();
  for (const release of set.releases) {
    if (seen.has(release)) {
      problems.push({ rule: 'invalid-definition', message: `release ${release} is listed twice` });
    }
    if (release.length === 0 || release.length > 64) {
      problems.push({
        rule: 'invalid-definition',
        message: `release name '${release}' must be 1-64 characters (the history table's column)`,
      });
    }
    seen.add(release);
  }
  if (!/^[a-z][a-z0-9_-]{0,63}$/.test(set.service)) {
    problems.push({
      rule: 'invalid-definition',
      message: `service name '${set.service}' must be lower-case letters, digits, - and _`,
    });
  }
  for (const deprecation of set.deprecations) {
    if (!seen.has(deprecation.release)) {
      const what = [deprecation.table, deprecation.column].filter(Boolean).join('.');
      problems.push({
        rule: 'unknown-release',
        message: `the deprecation of ${what} names release ${deprecation.release}, which is not in releases (${set.releases.join(', ')})`,
      });
    }
  }
  return problems;
}

function checkMigration(
  set: MigrationSet,
  migration: Migration,
  previous: Migration | undefined,
  ids: Set<string>,
): MigrationPolicy {
  const violations: PolicyViolation[] = [];
  const lockWarnings: LockWarning[] = [];
  const id = migration.id;
  if (ids.has(id)) {
    violations.push({
      rule: 'duplicate-id',
      migration: id,
      message: `migration id ${id} is used twice`,
    });
  }
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(id)) {
    violations.push({
      rule: 'invalid-definition',
      migration: id,
      message: `migration id '${id}' must be 1-128 letters, digits, '_', '.' or '-'`,
    });
  }
  const releaseIndex = set.releases.indexOf(migration.release);
  if (releaseIndex < 0) {
    violations.push({
      rule: 'unknown-release',
      migration: id,
      message: `migration ${id} says release ${migration.release}, which is not in releases (${set.releases.join(', ')}); add it there`,
    });
  } else if (previous && set.releases.indexOf(previous.release) > releaseIndex) {
    violations.push({
      rule: 'release-order',
      migration: id,
      message: `migration ${id} (release ${migration.release}) comes after ${previous.id} (release ${previous.release}): migrations apply in release order, so append new ones at the end`,
    });
  }
  migration.operations.forEach((operation, index) => {
    for (const problem of definitionProblems(operation)) {
      violations.push({
        rule: 'invalid-definition',
        migration: id,
        operation: index,
        message: problem,
      });
    }
  });
  if (releaseIndex >= 0) {
    const found = operationRules(set, migration, releaseIndex);
    violations.push(...found.violations);
    lockWarnings.push(...found.lockWarnings);
  }
  return { id, release: migration.release, violations, lockWarnings };
}

/** Checks every migration of a set against the policy. */
export function checkPolicy(set: MigrationSet): PolicyReport {
  const problems = setProblems(set);
  const ids = new Set<string>();
  const migrations = set.migrations.map((migration, i) => {
    const result = checkMigration(set, migration, set.migrations[i - 1], ids);
    ids.add(migration.id);
    return result;
  });
  const ok = problems.length === 0 && migrations.every((m) => m.violations.length === 0);
  return { ok, problems, migrations };
}

/** All violations of a report, set problems first, in migration order. */
export function policyViolations(report: PolicyReport): PolicyViolation[] {
  return [...report.problems, ...report.migrations.flatMap((m) => m.violations)];
}
