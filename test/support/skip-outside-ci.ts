/**
 * A test that needs something the machine may lack (a library, a server, a socket) skips with
 * the reason on a developer's machine; under CI=true, where .ci/run installs and starts all of
 * it, the same lack is an error. bin/test.mjs fails a run on any skip it does not allow anyway;
 * this also makes one file run alone under CI=true fail loudly.
 */
export function skipOutsideCi(reason: string | undefined): string | undefined {
  if (reason !== undefined && process.env.CI === 'true') {
    throw new Error(`${reason} (CI=true: this test must run, not skip)`);
  }
  return reason;
}
