/**
 * The named-check framework of `baton status upgrade check`, after
 * oslo.upgradecheck: each check returns a code and, for warnings and
 * failures, details saying what is wrong and what to do. The command's exit
 * status is the worst code: 0 success, 1 warning (the upgrade may be fine,
 * look), 2 failure (do not upgrade).
 */

export type CheckCode = 'success' | 'warning' | 'failure';

/** The result of one check: success, warning or failure, with details. */
export interface CheckResult {
  readonly code: CheckCode;
  readonly details?: string;
}

/** One check of `upgrade check` (oslo.upgradecheck's design). */
export interface UpgradeCheck {
  /** Shown as "Check: <name>". */
  readonly name: string;
  /** Runs the check. */
  run(): Promise<CheckResult> | CheckResult;
}

/** A check's result with its name. */
export interface UpgradeCheckRow extends CheckResult {
  readonly name: string;
}

/** Every check's result and the exit status they give. */
export interface UpgradeCheckReport {
  readonly rows: readonly UpgradeCheckRow[];
  /** The worst code of all checks (success when there are none). */
  readonly code: CheckCode;
  readonly exitStatus: 0 | 1 | 2;
}

/** The exit status of each result code, as oslo.upgradecheck's. */
export const CHECK_EXIT_STATUS: Readonly<Record<CheckCode, 0 | 1 | 2>> = {
  success: 0,
  warning: 1,
  failure: 2,
};

/** A passed check. */
export const checkSuccess = (details?: string): CheckResult =>
  details === undefined ? { code: 'success' } : { code: 'success', details };
/** A check that found something to look at. */
export const checkWarning = (details: string): CheckResult => ({ code: 'warning', details });
/** A check that found what blocks the upgrade. */
export const checkFailure = (details: string): CheckResult => ({ code: 'failure', details });

/**
 * Runs the checks one after the other, in order. A check that throws is a
 * failure whose details are the error's message (oslo stops the whole
 * command with 255; the other checks' results are worth having).
 */
export async function runUpgradeChecks(
  checks: readonly UpgradeCheck[],
): Promise<UpgradeCheckReport> {
  const rows: UpgradeCheckRow[] = [];
  let worst: CheckCode = 'success';
  for (const check of checks) {
    let result: CheckResult;
    try {
      result = await check.run();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = checkFailure(`The check could not run: ${message}`);
    }
    rows.push({ name: check.name, ...result });
    if (CHECK_EXIT_STATUS[result.code] > CHECK_EXIT_STATUS[worst]) worst = result.code;
  }
  return { rows, code: worst, exitStatus: CHECK_EXIT_STATUS[worst] };
}
