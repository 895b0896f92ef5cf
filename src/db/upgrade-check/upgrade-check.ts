/**
 * The named-check framework of `baton status upgrade check`, after
 * oslo.upgradecheck: each check returns a code and, for warnings and
 * failures, details saying what is wrong and what to do. The command's exit
 * status is the worst code: 0 success, 1 warning (the upgrade may be fine,
 * look), 2 failure (do not upgrade).
 */

export type CheckCode = 'success' | 'warning' | 'failure';

export interface CheckResult {
  readonly code: CheckCode;
  readonly details?: string;
}

export interface UpgradeCheck {
  /** Shown as "Check: <name>". */
  readonly name: string;
  run(): Promise<CheckResult> | CheckResult;
}

export interface UpgradeCheckRow extends CheckResult {
  readonly name: string;
}

export interface UpgradeCheckReport {
  readonly rows: readonly UpgradeCheckRow[];
  /** The worst code of all checks (success when there are none). */
  readonly code: CheckCode;
  readonly exitStatus: 0 | 1 | 2;
}

export const CHECK_EXIT_STATUS: Readonly<Record<CheckCode, 0 | 1 | 2>> = {
  success: 0,
  warning: 1,
  failure: 2,
};

export const checkSuccess = (details?: string): CheckResult =>
  details === undefined ? { code: 'success' } : { code: 'success', details };
export const checkWarning = (details: string): CheckResult => ({ code: 'warning', details });
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
