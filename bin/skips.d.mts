// Types of bin/skips.mjs, for the tests that import it.
export interface AllowedSkip {
  file: string;
  test: string;
  reason: string;
}

export interface Skip {
  file: string;
  test: string;
  kind: 'test' | 'suite';
  reason: string;
  allowed: boolean;
}

export interface PassEvent {
  name: string;
  file?: string;
  skip?: string | boolean;
  todo?: string | boolean;
  details?: { type?: string };
}

export function parseAllowedSkips(text: string): AllowedSkip[];

export class SkipLedger {
  constructor(allowed: AllowedSkip[], name: (file: string) => string);
  readonly skips: Skip[];
  readonly silent: string[];
  readonly passed: number;
  record(data: PassEvent): void;
  unexpected(): Skip[];
  report(allowlist: string): string[];
}
